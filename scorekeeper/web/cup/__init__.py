"""A cup night's pages (issue 38): cups.py."""
