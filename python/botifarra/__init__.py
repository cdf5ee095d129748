"""Botifarra: the reference server's engine, house bots and solver in Python.

- ``Game``: one match of any variant and options; actions and views are dicts
  in the JSON shapes of the HTTP API (docs/api.md), so an action chosen here
  can be posted to the server verbatim.
- ``Batch``: many matches stepped at once with numpy observations and
  legal-action masks (``ACTION_SPACE`` ids, ``OBSERVATION_SIZE`` floats).
- ``decide(level, view)``: a house bot's action for a view.
- ``botifarra.env``: a PettingZoo AEC environment and a Gymnasium
  single-agent wrapper (needs ``pettingzoo`` and ``gymnasium``).
- ``botifarra.client``: a typed client for the HTTP API; ``botifarra-bot``
  (``botifarra.runner``) plays a bot as a registered player with it.

See docs/python.md.
"""

from ._botifarra import (
    ACTION_SPACE,
    OBSERVATION_SIZE,
    Batch,
    BotifarraError,
    Game,
    InvalidRequest,
    RuleRefused,
    action_id,
    action_of_id,
    bot_names,
    decide,
    encode_view,
)

VARIANTS = ("pairs", "abarrotada", "abarrotada3")

__all__ = [
    "ACTION_SPACE",
    "OBSERVATION_SIZE",
    "VARIANTS",
    "Batch",
    "BotifarraError",
    "Game",
    "InvalidRequest",
    "RuleRefused",
    "action_id",
    "action_of_id",
    "bot_names",
    "decide",
    "encode_view",
]
