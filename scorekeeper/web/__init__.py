"""The web: thin Flask blueprints (JSON API, counting pages, tables, live sharing, rules, exports).

It may import the store and the engine, never the other way round; hand_form.py turns a game's entry
declaration into the one hand form, templates/ and static/ at the top level hold the pages.
"""
