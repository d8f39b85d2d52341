"""The Jupyter server (Binder, JupyterHub) serves the app's pages as `make app` does: voila.json's settings.

Voilà's server extension takes only the VoilaConfiguration part of voila.json (and
voila.py's hook); kernel culling belongs to the Jupyter server, which reads this file
from the directory on JUPYTER_CONFIG_PATH (binder/start and the README's JupyterHub
image put this directory there). tests/browser/test_hub.py runs it under a real
JupyterHub, tests/browser/test_binder_in_browser.py as Binder starts it.

- Culling, kernels on local sockets, and the patience of a page's run: voila.json's.
- MathJax from no other server. Voilà's server extension, unlike the `voila` command,
  finds no MathJax setting in the server's settings and then tells every page to load
  MathJax 2 from a public CDN, which a school network or a hub without internet fails.
  With both settings present and empty, as the `voila` command passes them, the page
  uses the MathJax 3 that Voilà's own scripts carry, served by this server.
- A kernel's local socket is a file, ``<runtime dir>/kernel-<id>-ipc-<n>``, and such a
  path must fit in 107 characters: with a runtime directory longer than 57 characters
  (a deep HOME or JUPYTER_RUNTIME_DIR) every game page would fail with "File name too long":
  there the kernels talk TCP instead, and the server's log says why.
"""

import json
import sys
from pathlib import Path

import zmq
from jupyter_core.paths import jupyter_runtime_dir

# "/kernel-" + a 36-character kernel id + "-ipc-" + one digit, after the runtime directory
IPC_SOCKET_TAIL = len("/kernel-") + 36 + len("-ipc-") + 1
IPC_PATH_MAX = getattr(zmq, "IPC_PATH_MAX_LEN", 107)


def local_sockets_fit(runtime_dir: str) -> bool:
    """Whether a kernel's local socket paths under ``runtime_dir`` fit the system's limit."""
    return len(runtime_dir) + IPC_SOCKET_TAIL <= IPC_PATH_MAX


c = get_config()  # noqa: F821  (traitlets provides get_config to config files)
voila_settings = json.loads((Path(__file__).parent / "voila.json").read_text())
c.MappingKernelManager.update(voila_settings["MappingKernelManager"])
c.VoilaExecutor.update(voila_settings["VoilaExecutor"])  # patience with a class opening pages at once
if local_sockets_fit(jupyter_runtime_dir()):
    c.KernelManager.update(voila_settings["KernelManager"])  # local sockets, not TCP ports (README, config/)
else:
    print(
        f"hatskit config/jupyter_server_config.py: kernels talk TCP, not local sockets: the runtime directory "
        f"{jupyter_runtime_dir()} is longer than {IPC_PATH_MAX - IPC_SOCKET_TAIL} characters",
        file=sys.stderr,
    )
# A plain dict, not .update(): jupyterhub-singleuser reads this setting back as a dict.
c.ServerApp.tornado_settings = {"mathjax_url": None, "mathjax_config": None}
