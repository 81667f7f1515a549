from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts: guest sign-in, credentials, profiles (R-36, R-37); its models stay in ``rivals.models``."""

    name = "rivals.accounts"
    label = "accounts"
    verbose_name = "Accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import event_types, projections
        from rivals.accounts import events
        from rivals.accounts.projections import account_profile_projection

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(
            feature=self.label, types=events.ACCOUNT_EVENTS, module=events, schema_versions=events.SCHEMA_VERSIONS
        )
        projections.register(
            account_profile_projection
        )  # applied live in every append; replayed by rebuild_projections
        from rivals.accounts.operators import operator_create
        from rivals.models.accounts import register_operator_factory

        register_operator_factory(operator_create)  # createsuperuser: an operator's creation is an event
        from django.apps import apps
        from django.db.models.signals import post_migrate

        from rivals.accounts.roles import roles_sync_after_migrate

        # the roles' groups get their permissions after every migrate (issue 40; rivals.accounts.roles):
        # on the platform app's signal, the first of the project's apps with models
        post_migrate.connect(
            roles_sync_after_migrate, sender=apps.get_app_config("rivals"), dispatch_uid="rivals.accounts.roles_sync"
        )

        from rivals.accounts.serializers import ERROR_DETAILS
        from rivals.api import error_details

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold

        from rivals.accounts import export_parts

        export_parts.register()  # its parts of a player's export (rivals.accounts.export)

        from rivals import notices as registry
        from rivals import notification_types
        from rivals.accounts import notices

        notification_types.register(feature=self.label, shapes=notices.SHAPES)  # the data of its notifications
        registry.register(feature=self.label, told=notices.TOLD)  # who hears of its events (rivals.notices)
