"""Start-up: the cycle collector the launcher paused is running again after the first frame."""

from __future__ import annotations

import gc

from attn_tui.app import make_app


async def test_collection_resumes_after_the_first_frame():
    gc.disable()  # as the launcher does
    try:
        async with make_app().run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert gc.isenabled()
            assert gc.get_freeze_count() > 0  # start-up's objects left out of later collections
    finally:
        gc.unfreeze()
        gc.enable()


async def test_an_app_started_with_collection_on_leaves_it_alone():
    assert gc.isenabled()
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert gc.isenabled() and gc.get_freeze_count() == 0
