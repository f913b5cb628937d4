// Toolbar icons (decorative: the buttons are named by their aria-label).
import type { ReactNode } from 'react';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg aria-hidden focusable="false" width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
      {children}
    </svg>
  );
}

export const BulletListIcon = () => (
  <Icon><circle cx="2.5" cy="4" r="1" fill="currentColor" /><circle cx="2.5" cy="8" r="1" fill="currentColor" /><circle cx="2.5" cy="12" r="1" fill="currentColor" /><path d="M6 4h8M6 8h8M6 12h8" /></Icon>
);
export const NumberedListIcon = () => (
  <Icon><path d="M2 2.5h1v3M2 5.5h2M1.8 9.2c.3-.6 1.9-.7 1.9.3 0 .8-1.9 1.5-1.9 2.5h2M6 4h8M6 8h8M6 12h8" /></Icon>
);
export const LinkIcon = () => (
  <Icon><path d="M6.5 9.5l3-3M7 4.5l1-1a2.5 2.5 0 013.5 3.5l-1 1M9 11.5l-1 1A2.5 2.5 0 014.5 9l1-1" /></Icon>
);
export const UnlinkIcon = () => (
  <Icon><path d="M7 4.5l1-1a2.5 2.5 0 013.5 3.5l-1 1M9 11.5l-1 1A2.5 2.5 0 014.5 9l1-1M2 2l12 12" /></Icon>
);
export const ImageIcon = () => (
  <Icon><rect x="1.5" y="2.5" width="13" height="11" rx="1.5" /><circle cx="5.5" cy="6" r="1.2" /><path d="M14.5 11l-4-4-6.5 6.5" /></Icon>
);
export const UndoIcon = () => <Icon><path d="M5 3L2 6l3 3M2 6h7.5a4 4 0 010 8H7" /></Icon>;
export const RedoIcon = () => <Icon><path d="M11 3l3 3-3 3M14 6H6.5a4 4 0 000 8H9" /></Icon>;
