"""The test folders share helper modules by plain import (pytest puts each test file's folder on
``sys.path``); this conftest puts ``tests/`` itself there too, for ``common.py``."""
