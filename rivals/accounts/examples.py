"""The accounts room's documented examples (``rivals.api.examples``): realistic values — a device
id as clients make one (a random UUID), an email, a pass phrase, a display name."""

from __future__ import annotations

from rivals.api.examples import request_examples

DEVICE_ID = "5f2c7d1a-93b4-4e0f-8a61-0c2d9e7b4a35"
EMAIL = "ann@example.org"
PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "tiles and dragons at dawn"
# a code as the emails carry them (the replay of the examples uses a fresh one of its own)
EMAILED_CODE = "eyJhIjo0MiwiZSI6ImFubkBleGFtcGxlLm9yZyJ9:1vRkQz:3pZ8fJ2mN4qK7tX1cV9bH6yL0sD5gW8eR2uI4oA7"

GUEST = request_examples({"a device's first sign-in (R-36)": {"device_id": DEVICE_ID}})
LOGIN = request_examples({"sign in with a verified email (R-36)": {"email": EMAIL, "password": PASSWORD}})
CREDENTIALS = request_examples({"add an email and a password (R-36)": {"email": EMAIL, "password": PASSWORD}})
VERIFY = request_examples({"the code from the email": {"token": EMAILED_CODE}})
PASSWORD_CHANGE = request_examples({"a new password": {"old_password": PASSWORD, "new_password": NEW_PASSWORD}})
PASSWORD_RESET = request_examples({"ask for a reset email": {"email": EMAIL}})
PASSWORD_RESET_CONFIRM = request_examples(
    {"the code from the email and a new password": {"token": EMAILED_CODE, "password": NEW_PASSWORD}}
)
ACCOUNT_UPDATE = request_examples({"a new display name": {"display_name": "Jade Dragon"}})
