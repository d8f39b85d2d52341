"""Where a page's kernel finds the class's table host, and who its student is on a JupyterHub.

The one place the kernel reads them: ``make app`` and the hub's spawner set ``TABLETOP_URL``
(docs/host.md); a hub also gives each server its user's name and API token. Binder and the static
site set none of them, so every part that talks to a host says it plays on one screen there.
"""

from __future__ import annotations

import os

HOST_ENV = "TABLETOP_URL"  # the table host's websocket address, ws://…/ws
HUB_TOKEN_ENV, HUB_USER_ENV = "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_USER"


def host_url() -> str | None:
    """The class's table host, or None where there is none (Binder, the static site, a plain JupyterLab)."""
    return os.environ.get(HOST_ENV) or None


def hub_token() -> str | None:
    """The hub's API token for this user's server, which the host checks instead of a seat token; None off a hub."""
    return os.environ.get(HUB_TOKEN_ENV) or None


def hub_user() -> str | None:
    """The hub user this kernel runs for: their name at a table and on the class list; None off a hub."""
    return os.environ.get(HUB_USER_ENV) or None
