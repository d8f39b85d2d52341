"""Run the table host: ``python -m tablehost --bind 127.0.0.1:8765 --db tables.sqlite [--hub-auth]``.

It prints the websocket URL it listens on (one line, flushed: a test or a
script reads it) and runs until SIGTERM or SIGINT, then closes its connections
and its file. Every move is committed as it is played, so a kill (even
``kill -9``) loses nothing: started again on the same file, the host replays
every table.

On a local host (not ``--hub-auth``) its second line is the teacher's link,
``teacher: <page>?teacher=<secret>`` (``--teacher-page``; ``make app`` passes
the course's first page), as Jupyter prints its token. The secret is drawn with
``secrets`` the first time a file is used and only its SHA-256 is kept there, so
the same link holds after a restart (and the teacher's page reconnects by
itself); a later start says when it was printed instead. ``--new-teacher-link``
draws a new one, and the old link stops holding. Without ``--db`` every start
draws one.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import time

from tablehost.auth import Auth, HubUserAuth, LocalAuth
from tablehost.server import BOT_DELAY, Settings, TableServer, split_bind
from tablehost.store import SYNC_MODES, StoreError
from tablehost.tables import AWAY_AFTER


def parse(argv: list[str] | None = None) -> Settings:
    """The command line as Settings; ``--hub-auth`` takes the service prefix from the hub's environment."""
    parser = argparse.ArgumentParser(prog="python -m tablehost", description="The hatskit table host.")
    parser.add_argument("--bind", default="127.0.0.1:8765", help="HOST:PORT to listen on (port 0: any free one)")
    parser.add_argument("--db", default=None, help="the SQLite file of the tables (default: in memory, lost at exit)")
    parser.add_argument("--hub-auth", action="store_true", help="a JupyterHub service: seats belong to hub users")
    parser.add_argument("--prefix", default=None, help="also serve under this path (default: the hub's service prefix)")
    parser.add_argument("--away-after", type=float, default=AWAY_AFTER, help="seconds before a lost player is away")
    parser.add_argument("--bot-delay", type=float, default=BOT_DELAY, help="seconds before a bot answers a move")
    parser.add_argument(
        "--synchronous",
        choices=SYNC_MODES,
        default="FULL",
        help="FULL: every change on the disk before anyone is told of it (one sync for the changes made meanwhile);"
        " NORMAL: no sync (safe from a killed host, not from a power cut)",
    )
    parser.add_argument("--teacher-page", default="", help="the page the printed teacher link opens")
    parser.add_argument("--new-teacher-link", action="store_true", help="draw a new teacher secret (the old stops)")
    args = parser.parse_args(argv)
    try:
        split_bind(args.bind)
    except ValueError as error:
        parser.error(str(error))
    prefix = args.prefix if args.prefix is not None else os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/")
    return Settings(
        args.bind, args.db, args.hub_auth, prefix, args.away_after, args.bot_delay, args.synchronous,
        args.new_teacher_link, args.teacher_page,
    )  # fmt: skip


def teacher_line(server: TableServer) -> str | None:
    """The teacher's link (the secret drawn at this start), or when the one that still holds was printed; None on
    a hub, where the hub says who teaches."""
    if server.settings.hub_auth:
        return None
    if server.teacher_secret is not None:
        page = server.settings.teacher_page
        after = "" if page else " (after a course page's address)"
        return f"teacher: {page}?teacher={server.teacher_secret}{after}"
    drawn = server.host.classroom.key_drawn or 0.0
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(drawn))
    return f"teacher: the link printed on {when} still holds (--new-teacher-link draws a new one)"


async def run(settings: Settings, auth: Auth) -> None:
    """Serve until SIGTERM or SIGINT."""
    server = TableServer(settings, auth)
    url = await server.start()
    print(f"table host listening on {url} (tables: {len(server.host.tables)})", flush=True)
    line = teacher_line(server)
    if line is not None:
        print(line, flush=True)
    for code, why in server.host.skipped.items():
        print(f"table {code} was not reloaded: {why}", file=sys.stderr, flush=True)
    for code, why in server.host.classroom.skipped.items():
        print(f"walkthrough {code} was not reloaded: {why}", file=sys.stderr, flush=True)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    await stopping.wait()
    await server.stop()
    print("table host stopped", flush=True)


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    settings = parse(argv)
    auth: Auth = HubUserAuth() if settings.hub_auth else LocalAuth()
    try:
        asyncio.run(run(settings, auth))
    except (StoreError, OSError) as error:  # another host on the file, a port taken: one line, not a traceback
        sys.exit(f"the table host did not start: {error}")


if __name__ == "__main__":
    main()
