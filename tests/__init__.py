"""The test suite, a package so that test folders share helpers by ordinary imports
(``from tests.server.server_helpers import ...``) and mypy can check it."""
