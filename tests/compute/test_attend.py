

def test_exp_out_of_range_names_where_the_exp_column_leaves_the_dtypes_range():
    import numpy as np

    from attn_tui.compute import attend

    q = np.array([[1.0, 0.0], [-1.0, 0.0], [0.1, 0.0]])
    k = np.array([[1000.0, 0.0], [1001.0, 0.0]])
    steps = attend(q, k, k, scale=False)
    assert steps.exp_out_of_range(0) == "overflows"  # e^1000 is inf; α is finite
    assert steps.exp_out_of_range(1) == "underflows"  # e^-1000 is 0; α is (0.73, 0.27)
    assert steps.exp_out_of_range(2) is None  # e^100
