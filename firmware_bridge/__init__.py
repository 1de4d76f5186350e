"""Serial link to the RGB-LED microcontroller and its firmware (see ARCHITECTURE.md)."""
