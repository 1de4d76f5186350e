"""gpiozero layer: LEDs under the points, buttons and buzzer (see ARCHITECTURE.md)."""
