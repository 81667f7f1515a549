"""Accounts (R-36). The account is the auth user; guests are created from a device id.

Personal data (email, device id, password hash) lives only in the account row's identity
columns, never in event payloads; a name the player chose is sealed in its event with the
account's own key (``AccountKey``, ``rivals.personal``). Erasure destroys the key and blanks the
columns: no event is rewritten (docs/api.md "Personal data").
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import (
    AbstractBaseUser,
    BaseUserManager,
    PermissionsMixin,
)
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.utils import timezone

# The accounts room's operator_create (registered from its ready(): the platform imports no room)
_OPERATOR_FACTORY: list[Callable[..., Account]] = []


def register_operator_factory(fn: Callable[..., Account]) -> None:
    _OPERATOR_FACTORY[:] = [fn]


class AccountManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, username: str, password: str | None = None, **extra):
        account = self.model(username=username, **extra)
        account.set_password(password)
        account.save(using=self._db)
        return account

    def create_superuser(self, username: str, password: str | None = None, **extra):
        """An operator's account, as ``manage.py createsuperuser`` (and pytest-django) make one:
        through the accounts room's ``operator_create``, so its creation is an event (issue 22)."""
        if not _OPERATOR_FACTORY:
            raise ImproperlyConfigured("no operator factory registered (rivals.accounts is not installed)")
        if extra.get("is_staff", True) is not True or extra.get("is_superuser", True) is not True:
            raise ValueError("an operator's account is staff and superuser")
        return _OPERATOR_FACTORY[0](username=username, password=password, actor="operator:cli")

    def restricted_ids(self, account_ids) -> set[int]:
        """R-38: those of ``account_ids`` that are suspended or closed now — they keep their
        places but receive no prize, trophy or points, and commitments of theirs end."""
        return set(
            self.filter(pk__in=list(account_ids))
            .filter(models.Q(suspended_at__isnull=False) | models.Q(closed_at__isnull=False))
            .values_list("pk", flat=True)
        )


class Account(AbstractBaseUser, PermissionsMixin):
    """A player (or an operator with ``is_staff``).

    Identity columns (username, device, credentials) are the write model; ``display_name`` and
    ``jokers`` are projections of the account's events and are rebuilt by ``rebuild_projections``.
    """

    username = models.CharField(max_length=150, unique=True)
    # the SHA-256 of the guest device id (a bearer secret: rivals.secrets), never the id itself
    device_id = models.CharField(max_length=200, unique=True, null=True, blank=True)
    device_unlinked_at = models.DateTimeField(
        null=True, blank=True, help_text="the device id no longer signs in (a credential change or a reset)"
    )
    email = models.EmailField(  # NULL, not "": unique must allow any number of accounts without one
        unique=True, null=True, blank=True, help_text="verified sign-in email (R-36)"
    )
    email_verified = models.BooleanField(default=False)
    pending_email = models.EmailField(  # noqa: DJ001 - NULL: none pending (as email above)
        null=True, blank=True, help_text="added, waiting for its verification"
    )
    is_staff = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)

    # projections
    display_name = models.CharField(max_length=40, blank=True, default="")
    # the display name as it is searched (rivals.names.search_key), byte-ordered (collation C)
    # for the search's prefix scans; the partial indexes of migration 0010 serve it
    search_name = models.TextField(blank=True, default="", db_collation="C")
    jokers = models.IntegerField(default=0)
    suspended_at = models.DateTimeField(null=True, blank=True, help_text="R-38: suspended by an operator")
    suspension_reason = models.CharField(max_length=300, blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True, help_text="closed (AccountClosed): no sign-in")

    objects = AccountManager()

    USERNAME_FIELD = "username"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        db_table = "rivals_account"
        # what an operator may do to a player (issue 40: the roles of rivals.accounts.roles) —
        # Django's add/change/delete do not fit: nobody edits an account in place
        permissions = [
            ("grant_jokers", "Can grant and correct jokers"),
            ("suspend_account", "Can suspend accounts and lift suspensions"),
            ("close_account", "Can close and erase accounts"),
            ("export_account", "Can export a player's data"),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def stream_id(self) -> str:
        return f"account-{self.pk}"

    @property
    def listed(self) -> bool:
        """Shown in rankings and leaderboards: not suspended, not closed (R-38)."""
        return self.suspended_at is None and self.closed_at is None


class OperatorManager(AccountManager):
    def get_queryset(self):
        return super().get_queryset().filter(is_staff=True)


class Operator(Account):
    """The admin's operators (issue 40): the staff accounts, on a page of their own where an
    Administrator adds them with a role, changes their role and removes them. A proxy: the same
    rows as ``Account``; its add/change/delete permissions are the Administrator's alone."""

    objects = OperatorManager()

    class Meta:
        proxy = True
        verbose_name = "operator"
        verbose_name_plural = "operators"


class AccessToken(models.Model):
    """One API token per signed-in device (``Authorization: Token <key>``). A sign-in creates one,
    a logout deletes the calling one, a password change keeps only the caller's, a reset none.

    ``key`` is the SHA-256 of the token the client holds (``rivals.secrets.secret_digest``): the
    token itself is shown once, in the sign-in's answer, and stored nowhere."""

    KINDS = (("device", "guest device"), ("password", "email and password"))

    key = models.CharField(max_length=64, primary_key=True, help_text="SHA-256 of the token")
    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="tokens")
    kind = models.CharField(max_length=10, choices=KINDS, default="device")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "rivals_access_token"
        indexes = [models.Index(fields=["account", "kind"], name="access_token_account_kind")]

    def __str__(self) -> str:
        return f"token {self.key[:12]} of {self.account_id} ({self.kind})"


class AccountKey(models.Model):
    """The per-account key that seals personal data inside events (``rivals.personal``).

    Not an event: destroying this row is how an erasure request is met — every sealed value in
    the log becomes unreadable without rewriting one event."""

    account = models.OneToOneField(Account, on_delete=models.CASCADE, primary_key=True, related_name="key")
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "rivals_account_key"

    def __str__(self) -> str:
        return f"personal-data key of account {self.account_id}"
