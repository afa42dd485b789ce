import { useEffect, useState } from 'react';
import { DeviceMessages, type Device, type DeviceCommand } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { formatTime } from '../../lib/format-time.js';
import { otherDevices } from '../../player/devices/connect-devices.js';
import { positionNowMs } from '../../player/devices/devices-store.js';
import { useDevicesState, useDevicesStore } from '../../player/devices/DevicesProvider.js';
import { playSavedQueue } from '../../player/devices/remote-playback.js';
import { usePlayerRuntime } from '../../player/usePlayer.js';
import { NextIcon, PauseIcon, PlayIcon, PreviousIcon } from '../../ui/icons.js';
import '../../ui/buttons.css';
import './DevicesMenu.css';

/** A failed call is retried by the user; the list shows the truth again at the next event. */
const quietly = (call: Promise<unknown>) => {
  call.catch(() => undefined);
};

/** Redraws every second while something plays elsewhere, so the positions shown move on. */
function useTicking(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [active]);
  return now;
}

function DeviceName({ device, current }: { device: Device; current: boolean }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(device.name);
  if (editing) {
    return (
      <form
        className="device__rename"
        onSubmit={(event) => {
          event.preventDefault();
          setEditing(false);
          quietly(api.devices.rename({ deviceId: device.id, body: { name } }));
        }}
      >
        <input
          aria-label={DeviceMessages.renameLabel(device.name)}
          value={name}
          maxLength={60}
          onChange={(event) => {
            setName(event.target.value);
          }}
        />
        <button type="submit" className="button button--ghost">
          OK
        </button>
      </form>
    );
  }
  return (
    <span className="device__name">
      {device.name}
      {current && <span className="device__this"> · {DeviceMessages.thisDevice}</span>}
      <button
        type="button"
        className="button button--ghost device__rename-button"
        aria-label={`${DeviceMessages.rename} ${device.name}`}
        onClick={() => {
          setName(device.name);
          setEditing(true);
        }}
      >
        {DeviceMessages.rename}
      </button>
    </span>
  );
}

function RemoteControls({ device, now }: { device: Device; now: number }) {
  const send = (command: DeviceCommand) => {
    quietly(api.devices.command({ deviceId: device.id, body: command }));
  };
  const playback = device.playback;
  const playing = playback?.state === 'playing';
  const durationMs = playback?.durationMs ?? 0;
  return (
    <div className="device__controls" role="group" aria-label={DeviceMessages.controlsOf(device.name)}>
      <button
        type="button"
        className="icon-button"
        aria-label="Previous"
        onClick={() => {
          send({ type: 'previous' });
        }}
      >
        <PreviousIcon size={16} />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={playing ? 'Pause' : 'Play'}
        onClick={() => {
          send({ type: playing ? 'pause' : 'play' });
        }}
      >
        {playing ? <PauseIcon size={16} /> : <PlayIcon size={16} />}
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label="Next"
        onClick={() => {
          send({ type: 'next' });
        }}
      >
        <NextIcon size={16} />
      </button>
      <input
        type="range"
        className="range device__seek"
        aria-label={`Seek on ${device.name}`}
        min={0}
        max={Math.max(1, Math.round(durationMs / 1000))}
        value={Math.round(positionNowMs(device, now) / 1000)}
        disabled={durationMs === 0}
        onChange={(event) => {
          send({ type: 'seek', positionMs: Number(event.target.value) * 1000 });
        }}
      />
      <input
        type="range"
        className="range device__volume"
        aria-label={`Volume on ${device.name}`}
        min={0}
        max={100}
        value={Math.round((playback?.volume ?? 1) * 100)}
        onChange={(event) => {
          send({ type: 'volume', volume: Number(event.target.value) / 100 });
        }}
      />
    </div>
  );
}

function DeviceEntry({ device, current, now }: { device: Device; current: boolean; now: number }) {
  const playback = device.playback;
  const what =
    playback?.songName == null || playback.state === 'stopped'
      ? DeviceMessages.nothingPlaying
      : `${playback.songName}${playback.artistName === null ? '' : ` · ${playback.artistName}`} · ${formatTime(positionNowMs(device, now) / 1000)} · ${playback.state === 'playing' ? 'Playing' : 'Paused'}`;
  return (
    <li className="device" aria-label={device.name}>
      <DeviceName device={device} current={current} />
      <span className="device__playing">{what}</span>
      {!current && device.kind === 'web' && (
        <>
          <RemoteControls device={device} now={now} />
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              quietly(api.devices.transfer({ deviceId: device.id }));
            }}
          >
            {DeviceMessages.moveTo(device.name)}
          </button>
        </>
      )}
    </li>
  );
}

/** The devices menu of the player (issue 27): the user's active devices, live, each controllable from here. */
export function DevicesMenu() {
  const [open, setOpen] = useState(false);
  const deviceId = useDevicesState((state) => state.deviceId);
  const devices = useDevicesState((state) => state.devices) ?? [];
  const others = otherDevices(devices, deviceId ?? null);
  const self = devices.find((device) => device.id === deviceId);
  const now = useTicking(open && others.some((device) => device.playback?.state === 'playing'));
  if (deviceId === null) return null;
  return (
    <div className="devices-menu">
      <button
        type="button"
        className="button button--ghost devices-menu__toggle"
        aria-expanded={open}
        onClick={() => {
          setOpen(!open);
        }}
      >
        {DeviceMessages.devices}
        {others.length > 0 && <span className="devices-menu__count"> {others.length}</span>}
      </button>
      {open && (
        <div className="devices-menu__panel" role="region" aria-label={DeviceMessages.devicesOf}>
          <ul className="devices-menu__list">
            {self !== undefined && <DeviceEntry device={self} current now={now} />}
            {others.map((device) => (
              <DeviceEntry key={device.id} device={device} current={false} now={now} />
            ))}
          </ul>
          {others.length === 0 && <p className="devices-menu__empty">{DeviceMessages.noOtherDevices}</p>}
          {others.some((device) => device.playback?.state === 'playing') && (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                quietly(api.devices.transfer({ deviceId }));
              }}
            >
              {DeviceMessages.moveHere}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** "Continue from <device> at 2:31": another device's queue, offered when Tonearm opens here. */
export function ContinueOffer() {
  const store = useDevicesStore();
  const offer = useDevicesState((state) => state.offer);
  const runtime = usePlayerRuntime();
  if (store === null || offer?.device == null) return null;
  const dismiss = () => {
    store.dispatch({ type: 'offer', offer: null });
  };
  return (
    <div className="continue-offer" role="status">
      <span>{DeviceMessages.continueFrom(offer.device.name, formatTime(offer.positionMs / 1000))}</span>
      <button
        type="button"
        className="button button--ghost"
        onClick={() => {
          dismiss();
          playSavedQueue(runtime, offer, offer.positionMs);
        }}
      >
        {DeviceMessages.continueAction}
      </button>
      <button type="button" className="button button--ghost" onClick={dismiss}>
        {DeviceMessages.dismiss}
      </button>
    </div>
  );
}
