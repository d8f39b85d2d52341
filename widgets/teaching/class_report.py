"""A student's stars and place, sent to the teacher's class list at the class's host, under the student's name.

    >>> report = ClassReport(url, "hats", tell=line.set, keep=browser.keep)   # Progress makes one with a host
    >>> report.named("Maya")                                                  # typed in "Play with classmates…"
    >>> report.progress(["hats/first-game"], "black-hat", 2)                 # each time the page keeps progress

Only with a host (``TABLETOP_URL``) and only once the student has given a name (the one they typed in *Play with
classmates…*, kept in the browser beside its class token; on JupyterHub their hub user): until then nothing is
sent. The host keeps the stars and place under that name, for the teacher's list alone (docs/host.md, "The class
together"). The connection runs on the kernel's asyncio loop: each change starts one task, which sends what the
host does not have yet, in order (join, stars, place), so a burst of changes is a few requests, never a queue.
A refusal (a name held by another browser) or an unreachable host is said in :attr:`said`; nothing more is sent
under a refused name until another is given.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tablehost.client import TableClient

Tell = Callable[[str], None]  # the line that says what is sent and to whom
Keep = Callable[[dict[str, str]], None]  # the browser keeps the class name and token ({"name", "token"})

NO_NAME_YET = "Your stars stay in this browser until you give your name in “Play with classmates…”."
SENT = (
    "Your stars and the lesson you are on go to your teacher's class list under the name {name}; nobody else sees them."
)
REFUSED = "Your teacher's class list said no ({why}), so nothing is sent under the name {name}."
UNREACHABLE = (
    "Your teacher's class list could not be reached ({why}); your stars stay in this browser and go there with"
    " your next step."
)


class ClassReport:
    """What one page sends the class's host about its student: the game's stars and where they are."""

    def __init__(
        self, url: str, game: str, tell: Tell, keep: Keep, hub_token: str | None = None, hub_user: str | None = None
    ) -> None:
        self.url, self.game, self.tell, self.keep = url, game, tell, keep
        self.hub_token = hub_token
        self.name: str | None = hub_user or None  # on a hub the user is the name, given at once
        self.token: str | None = None  # the class token that proves the name (a local host)
        self.table: str | None = None  # the classmates' table the student sits at, if any
        self.stars: list[str] | None = None  # what the page has: sent when the host has something else
        self.place: dict[str, Any] | None = None
        self.refused = False  # the host refused the name: nothing more under it
        self.page_heard = False  # the browser sent what it kept: until then the page's stars are not yet its own
        self.host_has: dict[str, Any] = {}  # what the host was last told: "name", "stars", "place"
        self.client: TableClient | None = None
        self._task: asyncio.Task[None] | None = None
        self.tell(NO_NAME_YET if self.name is None else SENT.format(name=self.name))

    # -- what the page says ----------------------------------------------------------------

    def kept(self, kept: dict[str, str]) -> None:
        """What the browser kept (``{"name", "token"}``) as the page opens; a hub's user name wins over it."""
        self.page_heard = True
        if self.name is None and kept.get("name"):
            self.name, self.token = kept["name"], kept.get("token") or None
            self.tell(SENT.format(name=self.name))
        self._kick()

    def named(self, name: str, table: str | None = None, token: str | None = None) -> None:
        """The name the student typed (and the table they sat at; the class token, when the page was given one
        for it, as a walkthrough's follower is): another name starts afresh, with that token or none."""
        name = name.strip()
        if table is not None:
            self.table = table
        if name and name.casefold() != (self.name or "").casefold() and self.hub_token is None:
            self.name, self.token, self.refused, self.host_has = name, token, False, {}
            self.tell(SENT.format(name=name))
        elif token is not None and self.token is None and self.hub_token is None:
            self.token, self.refused = token, False  # the name's own token, given elsewhere on the page
        self._kick()

    def progress(self, stars: list[str], lesson: str, step: int) -> None:
        """The game's stars and the lesson and step the student is at, as the page keeps them."""
        self.stars = sorted(stars)
        self.place = {"page": self.game, "lesson": lesson or None, "step": step}
        self._kick()

    @property
    def settled(self) -> bool:
        """Whether nothing is on its way to the host (each change sent, or refused)."""
        return self._task is None

    # -- sending --------------------------------------------------------------------------

    def _kick(self) -> None:
        """Start the sending task, unless one runs (it sends this change too) or there is nothing to send."""
        if self.name is None or self.refused or not self.page_heard or self._task is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a test that reads the parts): the next change on a loop sends it all
        self._task = loop.create_task(self._send())

    async def _send(self) -> None:
        """Send what the host does not have yet; a refusal or a lost host becomes the line's sentence."""
        from tornado.httpclient import HTTPClientError

        from tablehost.client import TableRefused

        try:
            while (work := self._next()) is not None:
                await work
        except TableRefused as refusal:
            self.refused = True
            self.tell(REFUSED.format(why=refusal.sentence.rstrip("."), name=self.name))
        except (OSError, TimeoutError, ConnectionError, HTTPClientError) as error:
            self.tell(UNREACHABLE.format(why=str(error) or type(error).__name__))
        finally:
            self._task = None

    def _next(self) -> Coroutine[Any, Any, None] | None:
        """The next request the host needs, or None when it has everything the page has."""
        where = None if self.place is None else self.place | {"table": self.table}
        if self.client is None or not self.client.connected:
            return self._connect()
        if self.host_has.get("name") != self.name:
            return self._join()
        if self.stars is not None and self.host_has.get("stars") != self.stars:
            return self._send_stars(self.stars)
        if where is not None and self.host_has.get("place") != where:
            return self._send_place(where)
        return None

    async def _connect(self) -> None:
        from tablehost.client import TableClient

        if self.client is None:
            client = TableClient(self.url, hub_token=self.hub_token)
            await client.connect()  # raises when the host cannot be reached now: the next change tries again
            self.client = client
        else:
            await self.client.wait_for(lambda client: client.connected, timeout=10.0)

    async def _join(self) -> None:
        """Join the class under the name (proved by the kept token); a new token is kept by the browser."""
        assert self.client is not None and self.name is not None
        name = self.name
        self.client.name, self.client.class_token = name, self.token
        reply = await self.client.class_join(name)
        if reply.get("token") and self.name == name:
            self.token = reply["token"]
            self.keep({"name": name, "token": reply["token"]})
        self.host_has = {"name": name}
        self.tell(SENT.format(name=name))

    async def _send_stars(self, stars: list[str]) -> None:
        assert self.client is not None
        await self.client.class_stars(self.game, stars)
        self.host_has["stars"] = stars

    async def _send_place(self, where: dict[str, Any]) -> None:
        assert self.client is not None
        await self.client.class_where(**where)
        self.host_has["place"] = where

    async def close(self) -> None:
        """Leave the host (a test's end; a page's kernel just stops)."""
        if self.client is not None:
            await self.client.close()
