"""The store: all SQL (schema, queries, migrations); returns the engine's facts in dataclasses, never rows.

May import SQLAlchemy, Alembic and Flask's app object (for the engine per app); never the web package.
"""
from .db import init_app, is_key, make_engine, upgrade, writing  # noqa: F401
from .hands import (add_hand, added_since, by_token, change_table, changed_by, count_hands,  # noqa: F401
                    create_table, current_setup, delete_hand, edit_hand, fingerprint, get_hand, get_table, hands_at,
                    import_table, last_change, last_hand, list_hands, rename_everywhere, renamed_by, save_hand, set_played_on,
                    table_version,
                    undo)
from .circles import (circle_change, circle_of, circle_tables, circle_tag, create_circle, get_circle,  # noqa: F401
                      import_circle, join_circle, last_circle_change, pot_rule_of, rename_circle, set_pot_rule,
                      set_watch, undo_circle_change)
from .tournaments import (add_entrant, close_round, create_tournament, cup_log, cup_table_infos,  # noqa: F401
                          cup_tables,
                          draw_next_round, entrants, get_tournament, hands_in, import_tournament, reopen_table,
                          set_cup_watch, set_fixed_table, set_playing, set_round_clock, tournament_of_table,
                          tournament_tag)
from .tournaments import STAKE as CUP_STAKE  # noqa: F401
from .season_cups import circle_cups, circle_page_tag, join_cup, season_rule, set_season_rule  # noqa: F401
from .lists import keep_list, kept_list  # noqa: F401
from .links import CIRCLE, TABLE, TOURNAMENT, find_circle, find_tournament, find_link, new_scorer_link, share_links, share_links_of  # noqa: F401
from .money import (mark_paid, paid_for_table, paid_in_circle, pot_add, pot_entries_of, pot_undo,  # noqa: F401
                    unmark_paid)
from .schema import (CREATOR, SCORER, VIEWER, Access, Added, AlreadyPaid, CantUndo, Change, Circle,  # noqa: F401
                     CircleChange, CupTable, Entrant,
                     Full, Hand, InAnotherCircle, Moved, NameTaken, NotFound, Payment, PotEntry, PotShort, RoundClosed,
                     RoundFull, RoundOpen, Stale, TableInfo, Tournament, changes, hands, links, metadata, tables)
