"""The sending domain the suites share (test_domains reads its health and DMARC reports, test_sending pauses it)."""

# MAILROOM_FROM's domain, verified. The other languages' suites may pause and resume it too while this one runs: a
# pause of it is looked for by scope and name, counts of released recipients include theirs, and it is always resumed.
PAUSED_DOMAIN = "example.com"
