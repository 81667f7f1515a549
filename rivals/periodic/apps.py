from django.apps import AppConfig


class PeriodicConfig(AppConfig):
    """Periodic jobs as operators run them (issue 22): the declared schedule (``config/periodic.py``),
    each job's last run, and an operator's pause and resume — events on ``job-<name>`` that
    ``setup_periodic_tasks`` honours at every start. The jobs themselves belong to their rooms."""

    name = "rivals.periodic"
    label = "periodic"
    verbose_name = "Periodic jobs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import admin_display

        admin_display.register_pages(streams=("job-",))  # what the admin links (rivals.admin_display)

        from rivals import event_types
        from rivals.periodic import events

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(feature=self.label, types=events.JOB_EVENTS, module=events)
