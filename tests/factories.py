"""Test data factories."""

import factory
from django.contrib.auth import get_user_model

PASSWORD = "a-Long-test-passw0rd"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(user, create, extracted, **kwargs):
        if create:
            user.save()
