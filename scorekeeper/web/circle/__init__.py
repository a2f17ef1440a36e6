"""A circle's pages: its season, people, money, pot, links and files (templates/circle/)."""
