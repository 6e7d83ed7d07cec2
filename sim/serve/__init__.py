"""``dsq engine``: one of dsq's bots behind the UCI-style protocol of docs/engine-protocol.md
(:mod:`~sim.serve.server`), reading its client's lines bounded
(:mod:`~sim.serve.serverinput`)."""
