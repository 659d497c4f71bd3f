public enum MPRISPlaceholder {}
