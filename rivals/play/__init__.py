"""The reference client at ``/play/`` (issue 37): static files the app serves — plain ES modules,
no build step, no CDN — that speak only the public REST API (API.md) and the live socket. It is
an example for client developers and a way for operators and testers to play what players play;
nothing on the server depends on it, and it imports no room."""
