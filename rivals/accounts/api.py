"""Accounts (API.md "Accounts", R-36, R-37): guest sign-in, email and password credentials,
sign-in and out, the own profile, public player profiles."""

from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.accounts import credentials, selectors
from rivals.accounts import examples as ex
from rivals.accounts import serializers as s
from rivals.accounts.export import AccountExportOut, export_document
from rivals.accounts.services import account_export, account_guest_signin, account_rename
from rivals.api.idempotency import idempotent
from rivals.api.schema import int_path
from rivals.api.serializers import DetailOut, ErrorOut
from rivals.api.throttling import (
    AnonThrottle,
    EmailSendThrottle,
    LoginAccountThrottle,
    LoginIpThrottle,
    UserThrottle,
)
from rivals.replica.views import ReplicaReads

_LOGIN_THROTTLES = [AnonThrottle, UserThrottle, LoginIpThrottle, LoginAccountThrottle]
_EMAIL_THROTTLES = [AnonThrottle, UserThrottle, LoginIpThrottle, EmailSendThrottle]
_ACCEPTED = {"detail": "accepted: if the address can receive it, an email is on its way"}


def _body(serializer_class, request):
    body = serializer_class(data=request.data)
    body.is_valid(raise_exception=True)
    return body.validated_data


class GuestSignInView(APIView):
    """R-36: a profile is created automatically from a device (guest account + token)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_guest",
        examples=ex.GUEST,
        summary="Sign in as a guest from a device",
        request=s.GuestSignInIn,
        responses={200: s.GuestSignInOut, 201: s.GuestSignInOut, 400: ErrorOut, 401: ErrorOut, 409: ErrorOut},
    )
    # a replay is the first answer with a fresh token: the token is not kept, and the device may sign in again
    @idempotent(secret_fields=("token",), reissue=True)
    def post(self, request):
        data = _body(s.GuestSignInIn, request)
        account, token, created = account_guest_signin(device_id=data["device_id"])
        out = {"account_id": account.pk, "token": token, "created": created}
        return Response(out, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class LoginView(APIView):
    """R-36: sign in on another device with a verified email. One 401 for every failure (unknown
    email, unverified, wrong password); throttled per IP and per email (429 ``throttled``).

    Decision: no ``Idempotency-Key`` replay here — a replayed answer would keep a live token in a
    second table; a retried login simply issues another token."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = _LOGIN_THROTTLES

    @extend_schema(
        operation_id="auth_login",
        examples=ex.LOGIN,
        summary="Sign in with email and password",
        request=s.LoginIn,
        responses={200: s.LoginOut, 400: ErrorOut, 401: ErrorOut},
    )
    def post(self, request):
        data = _body(s.LoginIn, request)
        account, token = credentials.login(email=data["email"], password=data["password"])
        return Response({"account_id": account.pk, "token": token})


class LogoutView(APIView):
    """Revoke the calling token; the account's other devices stay signed in."""

    @extend_schema(operation_id="auth_logout", summary="Sign out this device", request=None, responses={200: DetailOut})
    def post(self, request):
        credentials.logout(account=request.user, token_key=request.auth)
        return Response({"detail": "signed out"})


class CredentialsView(APIView):
    """R-36: add an email and a password; a verification email is sent (202, the same answer
    whether or not the address is already registered). Changing existing credentials needs
    ``current_password`` (400 otherwise) and revokes the account's other tokens."""

    throttle_classes = _EMAIL_THROTTLES

    @extend_schema(
        operation_id="account_credentials_add",
        examples=ex.CREDENTIALS,
        summary="Add an email and a password",
        request=s.CredentialsIn,
        responses={202: DetailOut, 400: ErrorOut},
    )
    @idempotent
    def post(self, request):
        data = _body(s.CredentialsIn, request)
        credentials.credentials_add(
            account=request.user,
            email=data["email"],
            password=data["password"],
            current_password=data.get("current_password"),
            keep_token=request.auth,
        )
        return Response(_ACCEPTED, status=status.HTTP_202_ACCEPTED)


class VerifyView(APIView):
    """R-36: confirm the email with the code it received (works from any device)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle, LoginIpThrottle]

    @extend_schema(
        operation_id="account_verify",
        examples=ex.VERIFY,
        summary="Confirm your email with its code",
        request=s.TokenIn,
        responses={200: s.VerifiedOut, 400: ErrorOut, 409: ErrorOut},
    )
    @idempotent
    def post(self, request):
        data = _body(s.TokenIn, request)
        account = credentials.email_verify(token=data["token"])
        return Response({"account_id": account.pk, "email_verified": True})


class PasswordChangeView(APIView):
    """Change the password; every other device's token is revoked."""

    throttle_classes = [UserThrottle, LoginIpThrottle]

    @extend_schema(
        operation_id="account_password_change",
        examples=ex.PASSWORD_CHANGE,
        summary="Change your password",
        request=s.PasswordChangeIn,
        responses={200: s.PasswordChangedOut, 400: ErrorOut},
    )
    def post(self, request):
        data = _body(s.PasswordChangeIn, request)
        revoked = credentials.password_change(
            account=request.user,
            old_password=data["old_password"],
            new_password=data["new_password"],
            keep_token=request.auth,
        )
        return Response({"detail": "password changed", "tokens_revoked": revoked})


class PasswordResetView(APIView):
    """Ask for a reset code by email (202 for any address)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = _EMAIL_THROTTLES

    @extend_schema(
        operation_id="auth_password_reset",
        examples=ex.PASSWORD_RESET,
        summary="Ask for a password reset email",
        request=s.EmailIn,
        responses={202: DetailOut, 400: ErrorOut},
    )
    @idempotent
    def post(self, request):
        data = _body(s.EmailIn, request)
        credentials.password_reset_request(email=data["email"])
        return Response(_ACCEPTED, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(APIView):
    """Set a new password with the code (single use); every token of the account is revoked."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle, LoginIpThrottle]

    @extend_schema(
        operation_id="auth_password_reset_confirm",
        examples=ex.PASSWORD_RESET_CONFIRM,
        summary="Set a new password with the reset code",
        request=s.PasswordResetConfirmIn,
        responses={200: DetailOut, 400: ErrorOut},
    )
    def post(self, request):
        data = _body(s.PasswordResetConfirmIn, request)
        credentials.password_reset_confirm(token=data["token"], password=data["password"])
        return Response({"detail": "password changed: sign in with it"})


class AccountView(APIView):
    @extend_schema(
        operation_id="account_get",
        summary="Read your own profile",
        description="Your profile: display name, your own email, jokers, points {amr, weekly, daily}, trophies, daily bonus, club, and whether you are suspended (R-36, R-37, R-38).",
        responses={200: s.AccountOut},
    )
    def get(self, request):
        return Response(selectors.account_profile(account=request.user))

    @extend_schema(
        operation_id="account_update",
        examples=ex.ACCOUNT_UPDATE,
        summary="Change your display name",
        description="Change your display name (1–32 characters after NFC; no control, BOM or bidi characters). A suspended account changes no name (403, R-38); a name an operator reset is refused for 7 days (422, R-39). Nothing to change is a 200 that changes nothing.",
        request=s.AccountPatchIn,
        responses={
            200: s.AccountOut,
            400: ErrorOut,
            403: OpenApiResponse(ErrorOut, description="forbidden: a suspended account changes no display name (R-38)"),
            422: OpenApiResponse(ErrorOut, description="not_allowed: an operator reset this name (R-39, 7 days)"),
        },
    )
    def patch(self, request):
        data = _body(s.AccountPatchIn, request)
        account = request.user
        if "display_name" in data:
            account = account_rename(account=account, display_name=data["display_name"])
        return Response(selectors.account_profile(account=account))


class AccountExportView(APIView):
    """A player's own data (API.md Accounts; GDPR Art. 15 and 20): one JSON document, streamed."""

    @extend_schema(
        operation_id="account_export",
        summary="Download all your data",
        responses={
            200: AccountExportOut,
            429: OpenApiResponse(ErrorOut, description="throttled: one export an hour (details.retry_after_s)"),
        },
    )
    def get(self, request):
        subject = account_export(account=request.user, actor=f"account:{request.user.pk}")
        return export_response(subject)


def export_response(subject) -> StreamingHttpResponse:
    """The export as a download (the API's answer, and the admin's on a subject access request)."""
    response = StreamingHttpResponse(export_document(subject), content_type="application/json")
    stamp = subject.now.strftime("%Y%m%dT%H%M%SZ")
    response["Content-Disposition"] = f'attachment; filename="mahjong-rivals-account-{subject.account.pk}-{stamp}.json"'
    response["Cache-Control"] = "no-store"
    return response


class PlayerSearchView(ReplicaReads, APIView):
    """R-39: find players by part of their display name (public). Suspended and closed accounts
    and operators are not listed; a result shows what their public profile shows."""

    api_tag = "Community"
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="player_search",
        summary="Find players by name",
        parameters=[s.PlayerSearchIn],
        responses={200: s.PlayerSearchOut, 400: ErrorOut},
    )
    def get(self, request):
        query = s.PlayerSearchIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(selectors.player_search(**query.validated_data))


class PlayerView(ReplicaReads, APIView):
    """R-37: a player's public profile — display name, club, trophies, ranking totals and places;
    never an email, a device id, an IP or a token."""

    api_tag = "Community"
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="player_get",
        summary="Read a player's public profile",
        parameters=[int_path("player_id", "player")],
        responses={200: s.PublicProfileOut, 404: ErrorOut},
    )
    def get(self, request, player_id):
        return Response(selectors.player_profile(account_id=player_id))
