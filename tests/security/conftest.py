from tests.accounts.conftest import _quick_password_hashing, console_email, rates  # noqa: F401  shared fixtures
