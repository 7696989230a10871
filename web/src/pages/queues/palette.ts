// The 50 preset colours offered for a queue (spec/03 §2): ten hues in five shades.
export const QUEUE_PALETTE: readonly string[] = [
  '#b71c1c', '#d32f2f', '#f44336', '#e57373', '#ef9a9a',
  '#880e4f', '#c2185b', '#e91e63', '#f06292', '#f48fb1',
  '#4a148c', '#7b1fa2', '#9c27b0', '#ba68c8', '#ce93d8',
  '#1a237e', '#303f9f', '#3f51b5', '#7986cb', '#9fa8da',
  '#0d47a1', '#1976d2', '#2196f3', '#64b5f6', '#90caf9',
  '#006064', '#0097a7', '#00bcd4', '#4dd0e1', '#80deea',
  '#1b5e20', '#388e3c', '#4caf50', '#81c784', '#a5d6a7',
  '#827717', '#afb42b', '#cddc39', '#dce775', '#e6ee9c',
  '#e65100', '#f57c00', '#ff9800', '#ffb74d', '#ffcc80',
  '#3e2723', '#5d4037', '#795548', '#a1887f', '#bcaaa4',
];
