"""The scenarios gpudoctor's suites replay, as code: tools/make_snapshots.py writes them."""
