from attn_tui.cli import main

raise SystemExit(main())
