"""Short display names for canonical bot specs (display only; filters use the full spec)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1024)
def short_bot(spec: str) -> str:
    """A canonical bot spec without its default parameters: ``alphabeta:depth=2``.

    Falls back to the spec itself when it cannot be parsed.
    """
    try:
        from sim.bots.spec import BOTS, parse_bot

        bot = parse_bot(spec)
        params = BOTS[bot.name][1]
    except Exception:  # noqa: BLE001 - any unparsable spec is shown as recorded
        return spec
    changed = [p for p in params if bot.params[p.name] != p.default]
    if not changed:
        return bot.name
    return bot.name + ":" + ",".join(f"{p.name}={p.format(bot.params[p.name])}" for p in changed)
