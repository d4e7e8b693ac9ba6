import type { Group } from '@bogwan/contracts';
import { mdiAccountPlusOutline, mdiBellRingOutline, mdiMagnify, mdiAccountRemoveOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { UserAvatar } from '../../../components/user-avatar';
import { messageText } from '../../../i18n/keys';
import { useAccounts } from '../../../api/get-accounts';
import { useAuth } from '../../../state/auth';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useAddMembers, useNotifyMember, useRemoveMember } from '../api/change-groups';
import { canChangeMembership } from '../lib/group-rules';

function failed(t: TFunction, error: unknown) {
  notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');
}

/** Manage members: the members (remove, notify again) and an invite dialog for the others. */
export function GroupMembersDialog({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useAuth()?.user;
  const remove = useRemoveMember();
  const notifyMember = useNotifyMember();
  const [inviting, setInviting] = useState(false);
  // Removing a member is asked first.
  const [removing, setRemoving] = useState<{ _id: string; name: string } | null>(null);
  const confirmRemove = () => {
    if (!group || !removing) return;
    const userId = removing._id;
    setRemoving(null);
    remove.mutate({ groupId: group._id, userId }, { onSuccess: () => notify(t('group_member_removed')), onError: (error) => failed(t, error) });
  };

  return (
    <Dialog open={group !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="group-members-title">
      <DialogTitle id="group-members-title">{group ? t('group_members_of', { name: group.name }) : ''}</DialogTitle>
      <DialogContent sx={{ minHeight: 280 }}>
        {group && group.users.length === 0 && (
          <Typography variant="body2" sx={{ color: 'text.secondary', py: 4, textAlign: 'center' }}>
            {t('group_no_members')}
          </Typography>
        )}
        <List dense aria-label={t('group_members')}>
          {group?.users.map((member) => (
            <ListItem
              key={member._id}
              data-member-email={member.email}
              secondaryAction={
                <>
                  <Tooltip title={t('group_notify_member')}>
                    <IconButton
                      aria-label={t('group_notify_member')}
                      onClick={() =>
                        notifyMember.mutate(
                          { groupId: group._id, userId: member._id },
                          { onSuccess: () => notify(t('group_member_notified')), onError: (error) => failed(t, error) },
                        )
                      }
                    >
                      <MdiIcon path={mdiBellRingOutline} fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('group_remove_member')}>
                    <IconButton
                      aria-label={t('group_remove_member_named', { name: member.name })}
                      disabled={remove.isPending || !me || !canChangeMembership(me, member)}
                      onClick={() => setRemoving(member)}
                    >
                      <MdiIcon path={mdiAccountRemoveOutline} fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </>
              }
            >
              <ListItemAvatar>
                <UserAvatar name={member.name} email={member.email} role={member.role} profileImage={member.profileImage} link />
              </ListItemAvatar>
              <ListItemText primary={member.name} secondary={member.email} />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose}>{t('close')}</Button>
        <Button variant="contained" startIcon={<MdiIcon path={mdiAccountPlusOutline} />} onClick={() => setInviting(true)} disabled={!group}>
          {t('group_invite')}
        </Button>
      </DialogActions>
      {group && <InviteDialog open={inviting} group={group} onClose={() => setInviting(false)} />}
      <ConfirmDialog
        open={removing !== null}
        title={t('group_remove_member')}
        message={removing && group ? t('group_remove_member_confirm', { name: removing.name, group: group.name }) : ''}
        confirmLabel={t('group_remove_member')}
        danger
        onConfirm={confirmRemove}
        onClose={() => setRemoving(null)}
      />
    </Dialog>
  );
}

/** Invite: pick accounts that are not members yet; each is added and notified. */
function InviteDialog({ open, group, onClose }: { open: boolean; group: Group; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useAuth()?.user;
  const accounts = useAccounts(open);
  const add = useAddMembers();
  const [keyword, setKeyword] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => {
    if (open) {
      setKeyword('');
      setChosen([]);
    }
  }, [open]);

  const members = useMemo(() => new Set(group.users.map((member) => member._id)), [group.users]);
  const needle = keyword.trim().toLowerCase();
  // Only accounts the caller may put into a group (the account rules); the server refuses others.
  const candidates = (accounts.data ?? []).filter(
    (account) =>
      !members.has(account._id) &&
      !!me &&
      canChangeMembership(me, account) &&
      (!needle || account.name.toLowerCase().includes(needle) || account.email.toLowerCase().includes(needle)),
  );
  const toggle = (id: string) => setChosen((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="group-invite-title">
      <DialogTitle id="group-invite-title">{t('group_invite')}</DialogTitle>
      <DialogContent>
        <TextField
          size="small"
          fullWidth
          placeholder={t('search_keyword')}
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('search_keyword') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <MdiIcon path={mdiMagnify} fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ mb: 1 }}
        />
        <Box sx={{ height: 320, overflowY: 'auto' }}>
          {accounts.isPending ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
              <CircularProgress aria-label={t('loading')} />
            </Box>
          ) : candidates.length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center', py: 6 }}>
              {t('group_no_candidates')}
            </Typography>
          ) : (
            <List dense aria-label={t('group_invite')}>
              {candidates.map((account) => (
                <ListItem key={account._id} disablePadding>
                  <ListItemButton onClick={() => toggle(account._id)}>
                    <Checkbox edge="start" checked={chosen.includes(account._id)} tabIndex={-1} slotProps={{ input: { 'aria-label': account.email } }} />
                    <ListItemAvatar>
                      <UserAvatar name={account.name} role={account.role} profileImage={account.profileImage} />
                    </ListItemAvatar>
                    <ListItemText primary={account.name} secondary={account.email} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button
          variant="contained"
          disabled={chosen.length === 0}
          loading={add.isPending}
          onClick={() =>
            add.mutate(
              { groupId: group._id, userIds: chosen },
              {
                onSuccess: () => {
                  notify(t('group_members_added', { n: chosen.length }));
                  onClose();
                },
                onError: (error) => failed(t, error),
              },
            )
          }
        >
          {t('group_invite_submit', { n: chosen.length })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
