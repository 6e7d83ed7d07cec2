"""External engines over a UCI-style protocol, and dsq's own bots served the same way.

- :mod:`sim.engines.registry`: the engine registry (``engines.toml``): how to start each
  engine, its options, its FEN dialect and the rules it claims to play.
- :mod:`sim.engines.botspec`: bot specs ``engine:NAME,movetime=100,...``.
- :mod:`sim.engines.process` and :mod:`sim.engines.client`: one engine subprocess, its
  lines read with deadlines, the handshake, ``position``/``go``, ``perft`` and ``moves``.
- :mod:`sim.engines.pool`: engine processes kept per worker process and reused.
- :mod:`sim.engines.bot`: :class:`~sim.engines.bot.EngineBot`, an engine as a dsq bot.
- :mod:`sim.engines.timecontrol` and :mod:`sim.engines.clocks`: time controls, clocks.
- :mod:`sim.engines.check` and :mod:`sim.engines.why`: the rules check.
- :mod:`sim.engines.server`: ``dsq serve``, a dsq bot behind the protocol.

The protocol is described in ``docs/engine-protocol.md``.
"""
