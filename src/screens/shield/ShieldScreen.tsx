import React from 'react';
import type { ScreenDef, ScreenProps } from '../screen-def';
import { useDomainStore, useSelect } from '../../state/store-hooks';
import { createShieldStore } from '../../state/shield-store';
import { shieldActions } from './actions';
import { GuardianPanel } from './GuardianPanel';
import { ZonesList } from './ZonesList';
import { SCREEN_ALIASES } from '../../renderers/screen-names';

/**
 * Shield: the zones list, and for one zone its API Guardian (settings, spec, plan limits,
 * endpoints, the local spec check). Only the visible part polls.
 */
export function ShieldScreen({ width, height }: ScreenProps): React.JSX.Element {
  const store = useDomainStore(createShieldStore);
  const openZoneId = useSelect(store, (s) => s.openZoneId);
  if (openZoneId === null) return <ZonesList store={store} width={width} height={height} />;
  return <GuardianPanel key={openZoneId} store={store} zoneId={openZoneId} width={width} height={height} />;
}

export const shieldScreen: ScreenDef = {
  id: 'shield',
  title: 'shield',
  aliases: [...SCREEN_ALIASES.shield],
  summary: 'Shield zones: WAF and API Guardian',
  actions: shieldActions,
  component: ShieldScreen,
};
