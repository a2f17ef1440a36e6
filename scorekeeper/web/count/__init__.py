"""The counting pages: count a pile of captured cards by taps, groups or classes (templates/count/)."""
