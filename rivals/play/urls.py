from django.urls import path

from rivals.play import views

urlpatterns = [path("", views.play, name="play")]
