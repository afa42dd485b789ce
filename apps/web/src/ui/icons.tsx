import type { ReactNode, SVGProps } from 'react';

export interface IconProps extends Omit<SVGProps<SVGSVGElement>, 'children'> {
  size?: number;
}

/** Decorative by default: the button or link around an icon carries the accessible name. */
export function makeIcon(displayName: string, body: ReactNode, filled = false) {
  function Icon({ size = 24, className, ...rest }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill={filled ? 'currentColor' : 'none'}
        stroke={filled ? 'none' : 'currentColor'}
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className={className === undefined ? 'icon' : `icon ${className}`}
        {...rest}
      >
        {body}
      </svg>
    );
  }
  Icon.displayName = displayName;
  return Icon;
}

export const HomeIcon = makeIcon(
  'HomeIcon',
  <>
    <path d="M3 10.5 12 3l9 7.5" />
    <path d="M5 9.5V20a1 1 0 0 0 1 1h4v-6h4v6h4a1 1 0 0 0 1-1V9.5" />
  </>,
);
export const SearchIcon = makeIcon(
  'SearchIcon',
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </>,
);
export const MicIcon = makeIcon(
  'MicIcon',
  <>
    <rect x="9" y="2" width="6" height="12" rx="3" />
    <path d="M5 10a7 7 0 0 0 14 0" />
    <path d="M12 17v5" />
  </>,
);
export const LibraryIcon = makeIcon(
  'LibraryIcon',
  <>
    <path d="M4 4v16" />
    <path d="M8 4v16" />
    <path d="m13 4.5 5.5 15" />
  </>,
);
export const HeartIcon = makeIcon(
  'HeartIcon',
  <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.6 4.5 7.1 4.5c2 0 3.4 1.1 4.9 2.9 1.5-1.8 2.9-2.9 4.9-2.9 3.5 0 5.6 3.5 4.4 6.8-1.8 4.6-9.3 9.2-9.3 9.2Z" />,
);
export const HeartFilledIcon = makeIcon(
  'HeartFilledIcon',
  <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.6 4.5 7.1 4.5c2 0 3.4 1.1 4.9 2.9 1.5-1.8 2.9-2.9 4.9-2.9 3.5 0 5.6 3.5 4.4 6.8-1.8 4.6-9.3 9.2-9.3 9.2Z" />,
  true,
);
export const StarIcon = makeIcon(
  'StarIcon',
  <path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9Z" />,
);
export const StarFilledIcon = makeIcon(
  'StarFilledIcon',
  <path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9Z" />,
  true,
);
export const DownloadIcon = makeIcon(
  'DownloadIcon',
  <>
    <path d="M12 3v12" />
    <path d="m7 10 5 5 5-5" />
    <path d="M5 21h14" />
  </>,
);
export const UsersIcon = makeIcon(
  'UsersIcon',
  <>
    <circle cx="9" cy="8" r="4" />
    <path d="M2 21a7 7 0 0 1 14 0" />
    <path d="M16 4.1a4 4 0 0 1 0 7.8" />
    <path d="M22 21a7 7 0 0 0-4-6.3" />
  </>,
);
export const FolderIcon = makeIcon(
  'FolderIcon',
  <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5H9l2 2.5h8.5A1.5 1.5 0 0 1 21 9v9.5a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5Z" />,
);
export const PlayIcon = makeIcon(
  'PlayIcon',
  <path d="M8 5.14v13.72a1 1 0 0 0 1.5.86l11-6.86a1 1 0 0 0 0-1.72l-11-6.86A1 1 0 0 0 8 5.14Z" />,
  true,
);
export const PauseIcon = makeIcon(
  'PauseIcon',
  <>
    <rect x="6" y="4.5" width="4" height="15" rx="1.2" />
    <rect x="14" y="4.5" width="4" height="15" rx="1.2" />
  </>,
  true,
);
export const NextIcon = makeIcon(
  'NextIcon',
  <>
    <path d="M5 5.5v13a1 1 0 0 0 1.5.86L16 13.2V18a1 1 0 0 0 2 0V6a1 1 0 0 0-2 0v4.8L6.5 4.64A1 1 0 0 0 5 5.5Z" />
  </>,
  true,
);
export const PreviousIcon = makeIcon(
  'PreviousIcon',
  <path d="M19 5.5v13a1 1 0 0 1-1.5.86L8 13.2V18a1 1 0 0 1-2 0V6a1 1 0 0 1 2 0v4.8l9.5-6.16A1 1 0 0 1 19 5.5Z" />,
  true,
);
export const VolumeIcon = makeIcon(
  'VolumeIcon',
  <>
    <path d="M4 9.5v5h3.5L12 19V5L7.5 9.5H4Z" />
    <path d="M15.5 8.5a5 5 0 0 1 0 7" />
    <path d="M18.5 5.5a9 9 0 0 1 0 13" />
  </>,
);
export const VolumeMutedIcon = makeIcon(
  'VolumeMutedIcon',
  <>
    <path d="M4 9.5v5h3.5L12 19V5L7.5 9.5H4Z" />
    <path d="m16 9.5 5 5" />
    <path d="m21 9.5-5 5" />
  </>,
);
export const MoreIcon = makeIcon(
  'MoreIcon',
  <>
    <circle cx="5" cy="12" r="1.8" />
    <circle cx="12" cy="12" r="1.8" />
    <circle cx="19" cy="12" r="1.8" />
  </>,
  true,
);
export const PlusIcon = makeIcon(
  'PlusIcon',
  <>
    <path d="M12 5v14" />
    <path d="M5 12h14" />
  </>,
);
export const CloseIcon = makeIcon(
  'CloseIcon',
  <>
    <path d="M6 6l12 12" />
    <path d="M18 6 6 18" />
  </>,
);
export const MenuIcon = makeIcon(
  'MenuIcon',
  <>
    <path d="M4 6h16" />
    <path d="M4 12h16" />
    <path d="M4 18h16" />
  </>,
);
export const CheckCircleIcon = makeIcon(
  'CheckCircleIcon',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="m8 12.5 2.7 2.7L16 9.8" />
  </>,
);
export const ErrorIcon = makeIcon(
  'ErrorIcon',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7.5v5" />
    <path d="M12 16.2v.3" />
  </>,
);
export const CrownIcon = makeIcon(
  'CrownIcon',
  <>
    <path d="M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5L3 8Z" />
  </>,
);
export const PlaylistAddIcon = makeIcon(
  'PlaylistAddIcon',
  <>
    <path d="M3 6h12" />
    <path d="M3 12h12" />
    <path d="M3 18h7" />
    <path d="M18 14v7" />
    <path d="M14.5 17.5h7" />
  </>,
);
export const TrashIcon = makeIcon(
  'TrashIcon',
  <>
    <path d="M4 7h16" />
    <path d="M9 7V4h6v3" />
    <path d="M6 7l1 13h10l1-13" />
  </>,
);
export const EditIcon = makeIcon(
  'EditIcon',
  <>
    <path d="M4 20h4L19 9l-4-4L4 16v4Z" />
    <path d="m13.5 6.5 4 4" />
  </>,
);
export const LogoutIcon = makeIcon(
  'LogoutIcon',
  <>
    <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3" />
    <path d="M10 17l-5-5 5-5" />
    <path d="M5 12h11" />
  </>,
);
export const MusicIcon = makeIcon(
  'MusicIcon',
  <>
    <path d="M9 18V5l11-2v13" />
    <circle cx="6" cy="18" r="3" />
    <circle cx="17" cy="16" r="3" />
  </>,
);
export const ArrowLeftIcon = makeIcon(
  'ArrowLeftIcon',
  <>
    <path d="M19 12H5" />
    <path d="m11 6-6 6 6 6" />
  </>,
);

export const ShuffleIcon = makeIcon(
  'ShuffleIcon',
  <>
    <path d="M16 3h5v5" />
    <path d="M4 20 21 3" />
    <path d="M21 16v5h-5" />
    <path d="m15 15 6 6" />
    <path d="M4 4l5 5" />
  </>,
);
export const RepeatIcon = makeIcon(
  'RepeatIcon',
  <>
    <path d="m17 2 4 4-4 4" />
    <path d="M3 11v-1a4 4 0 0 1 4-4h14" />
    <path d="m7 22-4-4 4-4" />
    <path d="M21 13v1a4 4 0 0 1-4 4H3" />
  </>,
);
export const RepeatOneIcon = makeIcon(
  'RepeatOneIcon',
  <>
    <path d="m17 2 4 4-4 4" />
    <path d="M3 11v-1a4 4 0 0 1 4-4h14" />
    <path d="m7 22-4-4 4-4" />
    <path d="M21 13v1a4 4 0 0 1-4 4H3" />
    <path d="M11 10h1v4" />
  </>,
);
export const QueueIcon = makeIcon(
  'QueueIcon',
  <>
    <path d="M3 6h13" />
    <path d="M3 12h13" />
    <path d="M3 18h9" />
    <path d="M17 15.5v5l4-2.5-4-2.5Z" />
  </>,
);
export const DragHandleIcon = makeIcon(
  'DragHandleIcon',
  <>
    <circle cx="9" cy="6" r="1.2" />
    <circle cx="15" cy="6" r="1.2" />
    <circle cx="9" cy="12" r="1.2" />
    <circle cx="15" cy="12" r="1.2" />
    <circle cx="9" cy="18" r="1.2" />
    <circle cx="15" cy="18" r="1.2" />
  </>,
);
export const ArrowUpIcon = makeIcon(
  'ArrowUpIcon',
  <>
    <path d="M12 19V5" />
    <path d="m6 11 6-6 6 6" />
  </>,
);
export const ArrowDownIcon = makeIcon(
  'ArrowDownIcon',
  <>
    <path d="M12 5v14" />
    <path d="m18 13-6 6-6-6" />
  </>,
);
export const KeyboardIcon = makeIcon(
  'KeyboardIcon',
  <>
    <rect x="2" y="6" width="20" height="12" rx="2" />
    <path d="M6 10h.01M10 10h.01M14 10h.01M18 10h.01M7 14h10" />
  </>,
);
export const OfflineIcon = makeIcon(
  'OfflineIcon',
  <>
    <path d="M2 8.8a15 15 0 0 1 4.2-2.7" />
    <path d="M10.6 5.1A15 15 0 0 1 22 8.8" />
    <path d="M5 12.5a10 10 0 0 1 3.4-2" />
    <path d="M15.7 10.6a10 10 0 0 1 3.3 1.9" />
    <path d="M8.5 16a5 5 0 0 1 7 0" />
    <path d="M12 20h.01" />
    <path d="m3 3 18 18" />
  </>,
);
export const CameraIcon = makeIcon(
  'CameraIcon',
  <>
    <path d="M4 8h3l2-3h6l2 3h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1Z" />
    <circle cx="12" cy="13.5" r="3.5" />
  </>,
);
/** A circled "i": details. */
export const InfoIcon = makeIcon(
  'InfoIcon',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5" />
    <path d="M12 8h.01" />
  </>,
);
export const SortIcon = makeIcon(
  'SortIcon',
  <>
    <path d="m8 9 4-4 4 4" />
    <path d="m16 15-4 4-4-4" />
  </>,
);

/** The Tonearm mark: a record with a tonearm across it. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="logo-mark">
      <circle cx="14" cy="18" r="12" fill="var(--color-accent)" />
      <circle cx="14" cy="18" r="8" fill="none" stroke="var(--color-on-accent)" strokeOpacity="0.35" />
      <circle cx="14" cy="18" r="3" fill="var(--color-on-accent)" />
      <path d="M29 3 L20 15" stroke="var(--color-text)" strokeWidth="2.5" strokeLinecap="round" />
      <circle cx="29" cy="3" r="2.2" fill="var(--color-text)" />
    </svg>
  );
}
