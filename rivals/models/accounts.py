"""Accounts (R-36). The account is the auth user; guests are created from a device id."""

from __future__ import annotations

from django.contrib.auth.models import (
    AbstractBaseUser,
    BaseUserManager,
    PermissionsMixin,
)
from django.db import models
from django.utils import timezone


class AccountManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, username: str, password: str | None = None, **extra):
        account = self.model(username=username, **extra)
        account.set_password(password)
        account.save(using=self._db)
        return account

    def create_superuser(self, username: str, password: str | None = None, **extra):
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        extra.setdefault("display_name", username)
        return self.create_user(username, password, **extra)


class Account(AbstractBaseUser, PermissionsMixin):
    """A player (or an operator with ``is_staff``).

    Identity columns (username, device, credentials) are the write model; ``display_name`` and
    ``jokers`` are projections of the account's events and are rebuilt by ``rebuild_projections``.
    """

    username = models.CharField(max_length=150, unique=True)
    device_id = models.CharField(max_length=200, unique=True, null=True, blank=True)
    email = models.EmailField(unique=True, null=True, blank=True)
    email_verified = models.BooleanField(default=False)
    is_staff = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)

    # projections
    display_name = models.CharField(max_length=40, blank=True, default="")
    jokers = models.IntegerField(default=0)

    objects = AccountManager()

    USERNAME_FIELD = "username"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        db_table = "rivals_account"

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def stream_id(self) -> str:
        return f"account-{self.pk}"
