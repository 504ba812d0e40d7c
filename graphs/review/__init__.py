"""The review inbox: stored bucket items and pending interrupts of all three graphs, in one list."""
