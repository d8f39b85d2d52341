"""Who a connection is: nobody in particular on a local host (seat tokens hold seats), a hub user on JupyterHub.

:class:`Auth` is the one thing the server asks: ``await auth.identify(headers)``
gives the connection's user name, or None where seat tokens decide (LocalAuth),
or raises :class:`AuthError` to refuse the connection. With ``--hub-auth`` the
host is a hub-managed service: a student's kernel connects with
``Authorization: token $JUPYTERHUB_API_TOKEN`` (its server's token, which
inherits to the kernel), and :class:`HubUserAuth` asks the hub whose token it
is with ``jupyterhub.services.auth.HubAuth``. The token must grant access to
this service (``access:services!service=<name>``, see docs/host.md); the hub
tells the service which scope that is (``JUPYTERHUB_OAUTH_ACCESS_SCOPES``,
``HubAuth.access_scopes``). Tests pass a fake with the same two methods.

Who is the **teacher** (the class ops, ``classroom.py``): on a hub, a hub admin
or a member of the ``teachers`` group (the hub's user model carries ``admin``
and ``groups``; ``Auth.identity`` says so for the connection). On a local host,
whoever holds the teacher secret (:class:`TeacherKey`): drawn with ``secrets``,
printed once as a link by ``python -m tablehost``, and kept only as its SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from hatskit.core import brief

TEACHERS_GROUP = "teachers"  # on a hub, its members (and the hub's admins) lead the class


class AuthError(Exception):
    """A connection refused: ``status`` is the HTTP status (401 no credentials, 403 not allowed, 503 no hub)."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Identity:
    """Who a connection is: its hub user (None on a local host, where tokens and the teacher secret decide) and
    whether the hub counts that user a teacher (an admin, or a member of ``TEACHERS_GROUP``)."""

    name: str | None = None
    teacher: bool = False


class Auth(Protocol):
    """How the server learns who a connection is (see the module docstring)."""

    mode: str  # "local" or "hub"

    async def identify(self, headers: Mapping[str, str]) -> str | None: ...

    async def identity(self, headers: Mapping[str, str]) -> Identity: ...


class LocalAuth:
    """A local host (``make app``, loopback): every connection is let in, and seat tokens hold the seats."""

    mode = "local"

    async def identify(self, headers: Mapping[str, str]) -> str | None:
        return None

    async def identity(self, headers: Mapping[str, str]) -> Identity:
        return Identity()


class HubClient(Protocol):
    """The part of ``jupyterhub.services.auth.HubAuth`` the host uses (a test's fake offers the same)."""

    access_scopes: Any

    def user_for_token(self, token: str, use_cache: bool = True, session_id: str = "", *, sync: bool = True) -> Any: ...

    def check_scopes(self, required_scopes: Any, user: dict[str, Any]) -> Any: ...


class HubUserAuth:
    """A hub-managed service's connections: each is the hub user its API token belongs to."""

    mode = "hub"

    def __init__(self, hub: HubClient | None = None) -> None:
        if hub is None:
            from jupyterhub.services.auth import HubAuth  # only a hub's image needs jupyterhub

            hub = HubAuth()
        self.hub = hub

    async def identify(self, headers: Mapping[str, str]) -> str | None:
        """The hub user whose token is in ``Authorization: token ...`` (or ``Bearer ...``), allowed to use this host."""
        return (await self.identity(headers)).name

    async def identity(self, headers: Mapping[str, str]) -> Identity:
        """The connection's hub user, and whether it is a teacher (``is_teacher``): one question to the hub."""
        user = await self._ask_hub(bearer_token(headers.get("Authorization")))
        if not user or not isinstance(user.get("name"), str):
            raise AuthError("the hub knows no user with this token", 403)
        if self.hub.access_scopes and not self.hub.check_scopes(self.hub.access_scopes, user):
            raise AuthError(f"the hub user {brief(user['name'])} may not use this table host (no access scope)", 403)
        return Identity(user["name"], is_teacher(user))

    async def _ask_hub(self, token: str) -> dict[str, Any] | None:
        """The hub's user model for ``token`` (None: no such token); a hub that cannot answer is a 503, retried."""
        try:
            answer = self.hub.user_for_token(token, sync=False)
            return await answer if isinstance(answer, Awaitable) else answer
        except Exception as error:  # the hub is down or restarting: the client tries again later
            raise AuthError(f"the hub could not check the token now: {brief(str(error))}", 503) from None


def bearer_token(header: str | None) -> str:
    """The token in an Authorization header, or AuthError (401) saying what a connection must carry."""
    scheme, _, token = (header or "").strip().partition(" ")
    if scheme.lower() not in ("token", "bearer") or not token.strip():
        raise AuthError("a connection carries 'Authorization: token <JUPYTERHUB_API_TOKEN>'", 401)
    return token.strip()


def is_teacher(user: Mapping[str, Any]) -> bool:
    """Whether a hub user model (``/hub/api/user``: every token may read its own ``admin`` and ``groups``) is a
    teacher's: a hub admin, or a member of ``TEACHERS_GROUP``."""
    groups = user.get("groups")
    return user.get("admin") is True or (isinstance(groups, list) and TEACHERS_GROUP in groups)


class TeacherKey:
    """A local host's teacher secret, kept as its SHA-256 only (the secret itself is printed once, as a link).

    The secret is 32 random bytes (``secrets.token_urlsafe``), so a plain SHA-256 needs no salt, and the check
    compares digests in constant time.
    """

    def __init__(self, digest: str | None = None) -> None:
        self.digest = digest

    def draw(self) -> str:
        """A new secret; the one before it no longer holds."""
        secret = secrets.token_urlsafe(32)
        self.digest = hashlib.sha256(secret.encode()).hexdigest()
        return secret

    def holds(self, secret: object) -> bool:
        """Whether ``secret`` is the teacher's (never, while no secret has been drawn)."""
        if self.digest is None or not isinstance(secret, str):
            return False
        return hmac.compare_digest(self.digest, hashlib.sha256(secret.encode()).hexdigest())
