"""Live updates (issue 23): one WebSocket per client, topics fed from the event log after commit,
resumable by position; notifications as a projection of events (API.md "Live updates",
"Notifications")."""
