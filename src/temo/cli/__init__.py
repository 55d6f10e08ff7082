"""The `temo` command line: one module per subcommand, mounted in `app`."""
