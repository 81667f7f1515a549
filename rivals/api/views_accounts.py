from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals import selectors
from rivals.api import serializers as s
from rivals.api.idempotency import idempotent
from rivals.services.accounts import account_guest_signin, account_rename


class GuestSignInView(APIView):
    """R-36: a profile is created automatically from a device (guest account + token)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(request=s.GuestSignInIn, responses={200: s.GuestSignInOut, 201: s.GuestSignInOut, 400: s.ErrorOut})
    @idempotent
    def post(self, request):
        body = s.GuestSignInIn(data=request.data)
        body.is_valid(raise_exception=True)
        account, token, created = account_guest_signin(device_id=body.validated_data["device_id"])
        out = {"account_id": account.pk, "token": token, "created": created}
        return Response(out, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class AccountView(APIView):
    @extend_schema(responses={200: s.AccountOut})
    def get(self, request):
        return Response(selectors.account_profile(account=request.user))

    @extend_schema(request=s.AccountPatchIn, responses={200: s.AccountOut, 400: s.ErrorOut})
    def patch(self, request):
        body = s.AccountPatchIn(data=request.data)
        body.is_valid(raise_exception=True)
        account = request.user
        if "display_name" in body.validated_data:
            account = account_rename(account=account, display_name=body.validated_data["display_name"])
        return Response(selectors.account_profile(account=account))
