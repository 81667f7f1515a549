"""Club services (R-37): found, join, leave, hand over ownership; an empty club is closed.

Every change is an event on the club's stream (``club-<id>``), appended with the club's expected
version. Lock order everywhere: the player's account row, then the club row — so one player's
concurrent joins are serialised (at most one club each) and a club's members change one at a
time. Account rows are locked ``FOR NO KEY UPDATE``: the foreign-key checks of a club row's
owner or a member row (``FOR KEY SHARE`` on the account, taken after the club's lock) never wait
on them, so a leave, a join and a hand-over cannot deadlock; a lock conflict that still happens
is retried (``rivals.concurrency``), never answered as an outage.

Names (R-37, issue 19): a name needs a visible character, and two open clubs may not share a
name's skeleton (``rivals.names.name_skeleton``: case, width and look-alike characters folded).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import IntegrityError, transaction

from rivals.accounts.services import account_public_face_guard
from rivals.clubs.events import club_closed, club_founded, club_joined, club_left, club_owner_changed, club_renamed
from rivals.clubs.models import Club, ClubMember
from rivals.concurrency import retry_on_conflict
from rivals.errors import Conflict, Forbidden, NotAllowed, NotFound
from rivals.eventstore import NewEvent, event_append
from rivals.ids import is_uuid
from rivals.models import Account
from rivals.names import name_skeleton, visible_text
from rivals.player_notice import notice_clean
from rivals.text import clean_text

CLUB_NAME_MAX = 32
STREAM_TYPE = "club"


def club_name_key(name: str) -> str:
    """The identity of a name among open clubs: its skeleton ("Straße" is "STRASSE", "ＲＩＶＡＬＳ"
    is "Rivals", Cyrillic "Сlub" is "Club")."""
    return name_skeleton(name)


def club_get(club_id, *, lock: bool = False) -> Club:
    qs = Club.objects.select_for_update() if lock else Club.objects
    club = qs.filter(pk=club_id).first() if is_uuid(club_id) else None
    if club is None:
        raise NotFound("no such club")
    return club


def _lock_account(account: Account) -> None:
    Account.objects.select_for_update(no_key=True).filter(pk=account.pk).values_list("pk", flat=True).first()


def _append(club_id, version: int, events: list[NewEvent], actor: str, now: datetime | None = None) -> None:
    event_append(
        stream_id=f"club-{club_id}",
        stream_type=STREAM_TYPE,
        expected_version=version,
        actor=actor,
        events=events,
        now=now,
    )


def _membership(account: Account) -> ClubMember | None:
    return ClubMember.objects.filter(account=account).first()


@retry_on_conflict
@transaction.atomic
def club_found(*, account: Account, name: str, now: datetime | None = None) -> Club:
    """Found a club with its founder as owner and first member (``ClubFounded``)."""
    name = visible_text(clean_text(name, field="name", max_length=CLUB_NAME_MAX), field="name")
    key = club_name_key(name)
    _lock_account(account)
    account_public_face_guard(account=account, doing="club_found")
    current = _membership(account)
    if current is not None:
        raise NotAllowed("you are already in a club: leave it first", details={"club": str(current.club_id)})
    taken = Conflict(
        "a club with this name exists",
        details={"name": ["taken (names compare without case, width or look-alike characters)"]},
    )
    if Club.objects.filter(name_key=key, status="open").exists():
        raise taken
    club_id = uuid.uuid4()
    try:
        with transaction.atomic():
            _append(
                club_id,
                0,
                [club_founded(club_id=club_id, name=name, name_key=key, owner_id=account.pk)],
                f"account:{account.pk}",
                now,
            )
    except IntegrityError:  # founded concurrently under the same name
        raise taken from None
    return Club.objects.get(pk=club_id)


@retry_on_conflict
@transaction.atomic
def club_join(*, account: Account, club_id, now: datetime | None = None) -> Club:
    """Join an open club (``ClubJoined``); joining one's own club again changes nothing."""
    _lock_account(account)
    account_public_face_guard(account=account, doing="club_join")
    club = club_get(club_id, lock=True)
    current = _membership(account)
    if current is not None:
        if current.club_id == club.pk:
            return club
        raise NotAllowed("you are already in a club: leave it first", details={"club": str(current.club_id)})
    if club.status != "open":
        raise NotAllowed("the club is closed", details={"status": club.status})
    _append(
        club.pk,
        club.version,
        [club_joined(club_id=club.pk, account_id=account.pk)],
        f"account:{account.pk}",
        now,
    )
    club.refresh_from_db()
    return club


def _leave_events(club: Club, account_id: int) -> list[NewEvent]:
    """``ClubLeft``, then ``ClubClosed`` when nobody is left, or ``ClubOwnerChanged`` when the
    owner left. Decision: ownership passes to the longest-standing member (then the lowest id)."""
    events = [club_left(club_id=club.pk, account_id=account_id)]
    heir = (
        ClubMember.objects.filter(club=club)
        .exclude(account_id=account_id)
        .order_by("joined_at", "account_id")
        .values_list("account_id", flat=True)
        .first()
    )
    if heir is None:
        events.append(club_closed(club_id=club.pk, reason="empty"))
    elif club.owner_id == account_id:
        events.append(
            club_owner_changed(club_id=club.pk, owner_id=heir, previous_owner_id=account_id, reason="owner_left")
        )
    return events


@retry_on_conflict
@transaction.atomic
def club_leave(*, account: Account, club_id, actor: str | None = None) -> Club:
    _lock_account(account)
    club = club_get(club_id, lock=True)
    current = _membership(account)
    if current is None or current.club_id != club.pk:
        raise NotAllowed("you are not a member of this club")
    _append(club.pk, club.version, _leave_events(club, account.pk), actor or f"account:{account.pk}")
    club.refresh_from_db()
    return club


def club_leave_on_close(*, account: Account, actor: str) -> None:
    """A closed account leaves its club (inside the caller's transaction, account locked)."""
    current = _membership(account)
    if current is not None:
        club_leave(account=account, club_id=current.club_id, actor=actor)


@retry_on_conflict
@transaction.atomic
def club_owner_change(*, account: Account, club_id, owner_id: int) -> Club:
    """The owner hands the club over to another member (``ClubOwnerChanged``)."""
    _lock_account(account)  # the lock order of every club service: the account, then the club
    club = club_get(club_id, lock=True)
    if club.owner_id != account.pk:
        raise Forbidden("only the club's owner can hand it over")
    if owner_id == account.pk:
        return club
    if not ClubMember.objects.filter(club=club, account_id=owner_id).exists():
        raise NotAllowed("the new owner must be a member of the club", details={"owner": owner_id})
    _append(
        club.pk,
        club.version,
        [club_owner_changed(club_id=club.pk, owner_id=owner_id, previous_owner_id=account.pk, reason="handed_over")],
        f"account:{account.pk}",
    )
    club.refresh_from_db()
    return club


@retry_on_conflict
@transaction.atomic
def club_rename(
    *,
    club_id,
    name: str,
    reason: str,
    actor: str,
    report_id: str | None = None,
    reason_code: str = "abusive_name",
    message: str = "",
) -> Club:
    """R-39: an operator renames a club, with a note for operators (``reason``) and what its owner
    is told (``reason_code``, ``message``: ``rivals.player_notice``) — ``ClubRenamed``. The name is
    checked as a founder's is (visible, free among open clubs by its skeleton: 409 when taken)."""
    name = visible_text(clean_text(name, field="name", max_length=CLUB_NAME_MAX), field="name")
    reason = clean_text(reason, field="reason", max_length=300)
    reason_code, message = notice_clean(reason_code, message)
    club = club_get(club_id, lock=True)
    if club.status != "open":
        raise NotAllowed("the club is closed", details={"status": club.status})
    key = club_name_key(name)
    if Club.objects.filter(name_key=key, status="open").exclude(pk=club.pk).exists():
        raise Conflict("a club with this name exists", details={"name": ["taken"]})
    renamed = club_renamed(
        club_id=club.pk,
        name=name,
        name_key=key,
        previous_name=club.name,
        reason=reason,
        report_id=report_id,
        owner_id=club.owner_id,
        reason_code=reason_code,
        message=message,
    )
    _append(club.pk, club.version, [renamed], actor)
    club.refresh_from_db()
    return club
