"""The pure engine: card codes and decks, counting piles, settling up, and one file per game in games/.

It imports nothing but the standard library: no Flask, WTForms, SQL or the store and web packages
(tests/test_purity.py checks it), so every rule can be run and tested without a server.
"""
