"""Browser tests: the card table in a real Chromium (marker ``browser``)."""
