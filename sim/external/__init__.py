"""External engines over a UCI-style protocol.

- :mod:`sim.external.registry`: the engine registry (``engines.toml``): how to start each
  engine, its options, its FEN dialect and the rules it claims to play.
- :mod:`sim.external.botspec`: bot specs ``engine:NAME,movetime=100,...``.
- :mod:`sim.external.process` and :mod:`sim.external.client`: one engine subprocess, its
  lines read with deadlines, the handshake, ``position``/``go``, ``perft`` and ``moves``.
- :mod:`sim.external.pool`: engine processes kept per worker process and reused.
- :mod:`sim.external.bot`: :class:`~sim.external.bot.EngineBot`, an engine as a dsq bot.
- :mod:`sim.external.clocks`: clocks (time controls are :mod:`sim.core.timecontrol`).
- :mod:`sim.external.check` and :mod:`sim.external.why`: the rules check.

The protocol is described in ``docs/engine-protocol.md``.
"""
