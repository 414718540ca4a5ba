"""The reminders page's form: the same choices as PUT /api/v1/me/notifications/."""

from __future__ import annotations

from django import forms

from games.notify.models import Preferences
from games.notify.services import MAX_LEAD_MINUTES


class RemindersForm(forms.ModelForm):
    lead_minutes = forms.IntegerField(
        min_value=0,
        max_value=MAX_LEAD_MINUTES,
        label="Remind me before a deadline (minutes)",
        help_text="If you still have a move that long before the timer ends. 0: never.",
    )

    class Meta:
        model = Preferences
        fields = ["push_enabled", "email_enabled", "email", "lead_minutes"]
        labels = {
            "push_enabled": "Push notifications on my phones",
            "email_enabled": "E-mails",
            "email": "E-mail address",
        }
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}

    def clean(self):
        data = super().clean()
        if data.get("email_enabled") and not data.get("email"):
            self.add_error("email", "Give an address to get e-mails.")
        return data
