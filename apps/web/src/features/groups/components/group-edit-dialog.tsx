import type { Group } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { FolderAccessEditor } from '../../../components/folder-access-table';
import { useUpdateGroup } from '../api/change-groups';
import { canSaveGroupInfo, isDefaultGroup } from '../lib/group-rules';
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX } from './group-form-dialog';

/** Edit group: general (name and description) and its access per root folder. */
export function GroupEditDialog({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'general' | 'permission'>('general');
  useEffect(() => {
    if (group) setTab('general');
  }, [group?._id]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Dialog open={group !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="edit-group-title">
      <DialogTitle id="edit-group-title">{t('group_edit')}</DialogTitle>
      {group && (
        <>
          <Box sx={{ px: 3 }}>
            <Typography sx={{ fontWeight: 600, mb: 1 }}>{group.name}</Typography>
            <Tabs value={tab} onChange={(_event, value: 'general' | 'permission') => setTab(value)} sx={{ borderBottom: 1, borderColor: 'divider' }}>
              <Tab value="general" label={t('general_tab')} />
              <Tab value="permission" label={t('permission_tab')} />
            </Tabs>
          </Box>
          <DialogContent sx={{ minHeight: 320 }}>
            {tab === 'general' ? <GroupInfoForm group={group} /> : <FolderAccessEditor entity={group._id} kind="groups" rows={group.permissions} />}
          </DialogContent>
        </>
      )}
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function GroupInfoForm({ group }: { group: Group }) {
  const { t } = useTranslation();
  const update = useUpdateGroup();
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  useEffect(() => {
    setName(group.name);
    setDescription(group.description);
  }, [group.name, group.description]);
  const enabled = canSaveGroupInfo(group, { name, description });
  const fixedName = isDefaultGroup(group);
  const serverKey = update.error instanceof ApiError ? update.error.messageKey : update.error ? 'request_error_message' : null;

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!enabled) return;
        update.mutate(
          fixedName ? { _id: group._id, description: description.trim() } : { _id: group._id, name: name.trim(), description: description.trim() },
          { onSuccess: () => notify(t('group_saved')) },
        );
      }}
      sx={{ maxWidth: 520, pt: 1 }}
    >
      <Stack spacing={2}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {fixedName ? t('group_edit_rule_default') : t('group_edit_rule')}
        </Typography>
        <TextField
          label={t('group_name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          helperText={fixedName ? t('default_group_unrenamable') : undefined}
          slotProps={{ htmlInput: { maxLength: GROUP_NAME_MAX, readOnly: fixedName } }}
        />
        <TextField
          label={t('column_description')}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { maxLength: GROUP_DESCRIPTION_MAX } }}
        />
        {serverKey && <Alert severity="error">{messageText(t, serverKey)}</Alert>}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={!enabled} loading={update.isPending}>
            {t('group_edit_info')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
