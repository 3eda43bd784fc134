"""The application: the service layer and its Discord and terminal adapters."""
