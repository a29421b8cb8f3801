"""The heartbeat a health check reads: written while the bot is connected to Discord, never
while it is not (cogs/heartbeat.py); healthcheck.py tells the two apart by the file's age."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from cogs.heartbeat import Heartbeat, connected
from cogs.utils.config import load_config
from healthcheck import MAX_AGE, heartbeat_problem


class FakeBot(SimpleNamespace):
    def is_closed(self) -> bool:
        return self.closed

    def is_ready(self) -> bool:
        return self.ready


def bot(path: Path | None, **state) -> FakeBot:
    defaults = {"closed": False, "ready": True, "closing": False, "latency": 0.05, "shards": {}}
    return FakeBot(
        config=SimpleNamespace(heartbeat=path), background_tasks=False, **(defaults | state)
    )


class Shard(SimpleNamespace):
    def is_closed(self) -> bool:
        return self.closed


UP = Shard(closed=False, latency=0.04)


@pytest.mark.parametrize(
    ("state", "up"),
    [
        ({}, True),
        ({"ready": False}, False),
        ({"closed": True}, False),
        ({"closing": True}, False),
        ({"latency": math.nan}, False),
        ({"latency": math.inf}, False),
        ({"shards": {0: UP, 1: Shard(closed=False, latency=0.1)}}, True),
        ({"shards": {0: UP, 1: Shard(closed=True, latency=0.1)}}, False),
        ({"shards": {0: UP, 1: Shard(closed=False, latency=math.inf)}}, False),
    ],
)  # fmt: skip
def test_connected_means_ready_and_every_gateway_up(state, up):
    assert connected(bot(None, **state)) is up


def test_a_beat_is_written_only_while_connected(tmp_path):
    path = tmp_path / "beat" / "wire-heartbeat"
    down = Heartbeat(bot(path, ready=False))
    assert down.tick() is False and not path.exists()
    up = Heartbeat(bot(path))
    assert up.tick() is True and path.exists()
    assert heartbeat_problem(str(path)) is None
    old = time.time() - MAX_AGE - 1
    os.utime(path, (old, old))
    assert down.tick() is False
    assert "not connected to Discord" in heartbeat_problem(str(path))
    assert up.tick() is True and heartbeat_problem(str(path)) is None


def test_without_the_setting_there_is_no_file(tmp_path):
    assert load_config({"DISCORD_TOKEN": "x"}).heartbeat is None
    setting = load_config({"DISCORD_TOKEN": "x", "WIRE_HEARTBEAT": str(tmp_path / "hb")})
    assert setting.heartbeat == tmp_path / "hb"
    assert Heartbeat(bot(None)).tick() is False
    assert "WIRE_HEARTBEAT is not set" in heartbeat_problem("")
