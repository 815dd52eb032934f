from attn_tui.cli.main import main

raise SystemExit(main())
