"""The reminders page's form: the same choices as PUT /api/v1/me/notifications/."""

from __future__ import annotations

from django import forms

from games.notify.models import SETTINGS, EmailMode, Preferences, reminder_address
from games.notify.services import MAX_LEAD_MINUTES


class RemindersForm(forms.ModelForm):
    lead_minutes = forms.IntegerField(
        min_value=0,
        max_value=MAX_LEAD_MINUTES,
        label="Remind me before a deadline (minutes)",
        help_text="If you still have a move that long before the timer ends. 0: never.",
    )

    email_mode = forms.ChoiceField(
        choices=[
            (EmailMode.EACH_WINDOW, "An e-mail for each window"),
            (EmailMode.DAILY_DIGEST, "One daily digest instead"),
        ],
        widget=forms.RadioSelect,
        required=False,  # left out (an older page): kept as it is
        label="How often to e-mail",
        help_text="The digest lists every running game of yours once a day; push is not affected.",
    )
    digest_hour = forms.TypedChoiceField(
        choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
        coerce=int,
        empty_value=None,
        required=False,
        label="Send the digest at (your local time)",
    )

    class Meta:
        model = Preferences
        # The time zone is not chosen here: the pages keep it in step with the browser.
        fields = [f for f in SETTINGS if f != "time_zone"]
        labels = {
            "push_enabled": "Push notifications on my phones",
            "email_enabled": "E-mails",
            "email": "E-mail address",
        }
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}

    def clean_email(self):
        address = self.cleaned_data.get("email")
        if address:
            reminder_address(address)  # no IP literal, no localhost, as the API
        return address

    def clean_email_mode(self):
        return self.cleaned_data.get("email_mode") or self.instance.email_mode

    def clean_digest_hour(self):
        hour = self.cleaned_data.get("digest_hour")
        return self.instance.digest_hour if hour is None else hour

    def clean(self):
        data = super().clean()
        if data.get("email_enabled") and not data.get("email"):
            self.add_error("email", "Give an address to get e-mails.")
        return data
