import { usePlayerState } from '../../player/usePlayer.js';
import { Cover } from '../../ui/Cover.js';
import { MenuButton } from '../../ui/MenuButton.js';
import { SongArtists } from './SongArtists.js';
import { PlayToggle, type PlayToggleProps } from './SongControls.js';
import { useSongMenuItems } from './useSongMenuItems.js';
import '../../ui/buttons.css';
import '../../ui/tiles.css';

/** A song as a card (home page shelves): big cover with a floating play button. */
export function SongTile(props: Omit<PlayToggleProps, 'className'>) {
  const { song } = props;
  const isCurrent = usePlayerState((state) => state.current.id === song.id);
  const menuItems = useSongMenuItems(song);
  return (
    <div role="listitem" aria-label={song.name} className="tile" data-current={isCurrent}>
      <div className="tile__art">
        <Cover src={song.imgLink} width={300} className="tile__cover" />
        <PlayToggle {...props} className="play-toggle play-toggle--large tile__play" />
      </div>
      <div className="tile__footer">
        <span className="tile__text">
          <span className="tile__name">{song.name}</span>
          <SongArtists song={song} className="tile__meta" />
        </span>
        <MenuButton label={`More options for ${song.name}`} items={menuItems} className="icon-button tile__menu" />
      </div>
    </div>
  );
}
