"""Board rendering: pure functions from engine state to PNG bytes and text."""
