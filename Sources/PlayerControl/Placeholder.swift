public enum PlayerControlPlaceholder {}
