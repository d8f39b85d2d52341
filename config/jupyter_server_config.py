"""The Jupyter server (Binder, JupyterHub) culls and connects kernels as `make app` does: voila.json's settings.

Voilà's server extension takes only the VoilaConfiguration part of voila.json (and
voila.py's hook); kernel culling belongs to the Jupyter server, which reads this file
from the directory on JUPYTER_CONFIG_PATH (binder/start and the README's JupyterHub
image put this directory there).
"""

import json
from pathlib import Path

c = get_config()  # noqa: F821  (traitlets provides get_config to config files)
voila_settings = json.loads((Path(__file__).parent / "voila.json").read_text())
c.MappingKernelManager.update(voila_settings["MappingKernelManager"])
c.KernelManager.update(voila_settings["KernelManager"])  # local sockets, not TCP ports (README, config/)
c.VoilaExecutor.update(voila_settings["VoilaExecutor"])  # patience with a class opening pages at once
