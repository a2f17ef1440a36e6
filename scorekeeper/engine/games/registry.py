"""The explicit list of games: adding a game is one file and one line here."""
from . import french_tarot, koenigrufen, mitigati, scarto, sicilian_tarocchi, swiss_tarot_1659, triomphe_forcee, troccas, troggu

GAMES = {g.id: g for g in (
    troggu.GAME,
    troccas.GAME,
    french_tarot.GAME,
    scarto.GAME,
    mitigati.GAME,
    swiss_tarot_1659.GAME,
    sicilian_tarocchi.GAME,
    triomphe_forcee.GAME,
    koenigrufen.GAME,
)}
